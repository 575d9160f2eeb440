import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A running `landmark-near` fed through a pipe the test writes to, with stdout and stderr
/// gathered line by line (with arrival times) while it runs: for live streams, signals and
/// kills.
///
///     let tool = try LiveTool(["watch", "--state", db.path])
///     tool.write("{\"lat\":1,\"lon\":2}\n")
///     tool.waitUntilInputDrained()
///     tool.signal(SIGINT)
///     let status = tool.wait()     // 130
final class LiveTool {
    private let process = ChildProcess()
    private let input = Pipe()
    private let stdoutPipe = Pipe()
    private let stderrPipe = Pipe()
    private let collected = LiveOutput()
    private let readers = DispatchGroup()

    final class LiveOutput: Sendable {
        let state = Mutex(Collected())
        func withLock<T>(_ body: (inout Collected) -> T) -> T { state.withLock { body(&$0) } }
    }

    struct Collected {
        var stdout = Data()
        var stderr = Data()
        /// Arrival time (monotonic seconds) of each complete stdout line.
        var stdoutLineTimes: [Double] = []
    }

    /// Starts the tool; `stdoutFile` sends stdout to a file instead of a pipe.
    init(_ arguments: [String], stdoutFile: URL? = nil, currentDirectory: URL? = nil) throws {
        // Writing to a killed tool must fail with EPIPE, not end the test process.
        _ = Glibc.signal(SIGPIPE, SIG_IGN)
        process.executableURL = try toolExecutableURL()
        process.arguments = arguments
        if let currentDirectory { process.currentDirectoryURL = currentDirectory }
        process.standardInput = input
        if let stdoutFile {
            _ = FileManager.default.createFile(atPath: stdoutFile.path, contents: nil)
            process.standardOutput = try FileHandle(forWritingTo: stdoutFile)
        } else {
            process.standardOutput = stdoutPipe
        }
        process.standardError = stderrPipe
        try process.run()
        if stdoutFile == nil { collect(stdoutPipe.fileHandleForReading, isStdout: true) }
        collect(stderrPipe.fileHandleForReading, isStdout: false)
    }

    private func collect(_ handle: FileHandle, isStdout: Bool) {
        readers.enter()
        DispatchQueue.global().async { [collected, readers] in
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                let now = monotonicSeconds()
                collected.withLock { state in
                    if isStdout {
                        state.stdout.append(chunk)
                        for byte in chunk where byte == 0x0A { state.stdoutLineTimes.append(now) }
                    } else {
                        state.stderr.append(chunk)
                    }
                }
            }
            readers.leave()
        }
    }

    var pid: Int32 { process.processIdentifier }

    func write(_ text: String) {
        try? input.fileHandleForWriting.write(contentsOf: Data(text.utf8))
    }

    func closeInput() { try? input.fileHandleForWriting.close() }

    /// The write end of the tool's stdin, for a writer thread.
    var inputHandle: FileHandle { input.fileHandleForWriting }

    /// The lines of stdout that are complete (a killed run may end in half a line).
    var completeStdoutLines: [String] {
        var text = stdout
        if let newline = text.lastIndex(of: "\n") { text = String(text[...newline]) } else { text = "" }
        return text.split(separator: "\n").map(String.init)
    }

    /// Waits until the tool has read every byte written so far (the pipe is empty).
    func waitUntilInputDrained(timeout: Double = 10) {
        let deadline = monotonicSeconds() + timeout
        var pending: Int32 = 0
        while monotonicSeconds() < deadline {
            guard ioctl(input.fileHandleForWriting.fileDescriptor, UInt(FIONREAD), &pending) == 0, pending > 0 else { return }
            usleep(2_000)
        }
    }

    func signal(_ number: Int32) { kill(process.processIdentifier, number) }

    /// Waits for the tool to end (killing it after `timeout`) and returns its exit status, or
    /// 128 + the signal that ended it.
    @discardableResult
    func wait(timeout: Double = 20) -> Int32 {
        let deadline = monotonicSeconds() + timeout
        while process.isRunning && monotonicSeconds() < deadline { usleep(2_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        readers.wait()
        return process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus : process.terminationStatus
    }

    var isRunning: Bool { process.isRunning }

    var stdout: String { collected.withLock { String(decoding: $0.stdout, as: UTF8.self) } }
    var stderr: String { collected.withLock { String(decoding: $0.stderr, as: UTF8.self) } }
    var stdoutLineTimes: [Double] { collected.withLock { $0.stdoutLineTimes } }

    /// Waits until stderr contains `text` (or the timeout passes); true when it did.
    func waitForStderr(containing text: String, timeout: Double = 10) -> Bool {
        let deadline = monotonicSeconds() + timeout
        while monotonicSeconds() < deadline {
            if stderr.contains(text) { return true }
            usleep(5_000)
        }
        return stderr.contains(text)
    }

    /// Waits until stdout holds at least `count` lines (or the timeout passes).
    func waitForStdoutLines(_ count: Int, timeout: Double = 10) -> Bool {
        let deadline = monotonicSeconds() + timeout
        while monotonicSeconds() < deadline {
            if stdoutLineTimes.count >= count { return true }
            usleep(2_000)
        }
        return stdoutLineTimes.count >= count
    }
}

func monotonicSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}
