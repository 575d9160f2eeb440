import Foundation
import Synchronization
import Testing

/// A `landmark-near serve` started by a test on a free 127.0.0.1 port (it listens on port 0
/// and the test reads the chosen port from its stderr), stopped with a signal. With `listen`
/// nil it serves MQTT only (port 0); `ready` is a stderr text to wait for besides (an MQTT
/// subscription: `mqtt: subscribed`).
///
///     let server = try ServeProcess(["--events", "all"])
///     defer { server.kill() }
///     let reply = try HTTPConnection(port: server.port).request("GET", "/healthz")
///     let result = try server.stop()        // SIGTERM; stdout, stderr and exit status
final class ServeProcess: Sendable {
    let port: Int
    private let process: ChildProcess
    private let stdoutData = StreamBuffer()
    private let stderrData = StreamBuffer()
    private let readers = DispatchGroup()

    init(_ arguments: [String], listen: String? = "127.0.0.1:0", ready: String? = nil, startTimeout: TimeInterval = 15) throws {
        let process = ChildProcess()
        process.executableURL = try toolExecutableURL()
        process.arguments = ["serve"] + (listen.map { ["--listen", $0] } ?? []) + arguments
        let output = Pipe()
        let errors = Pipe()
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = output
        process.standardError = errors
        self.process = process
        try process.run()
        for (pipe, sink) in [(output, stdoutData), (errors, stderrData)] {
            readers.enter()
            let handle = pipe.fileHandleForReading
            let group = readers
            Thread.detachNewThread {
                while true {
                    let chunk = handle.availableData
                    if chunk.isEmpty { break }
                    sink.append(chunk)
                }
                group.leave()
            }
        }
        let deadline = Date().addingTimeInterval(startTimeout)
        var found: Int? = listen == nil ? 0 : nil
        var isReady = ready == nil
        while (found == nil || !isReady) && Date() < deadline && process.isRunning {
            let text = String(decoding: stderrData.data, as: UTF8.self)
            if let ready, text.contains(ready) { isReady = true }
            if found == nil, let range = text.range(of: #"listening on https?://\S+:(\d+)"#, options: .regularExpression) {
                found = Int(text[range].split(separator: ":").last!)
            }
            if found == nil || !isReady { usleep(20_000) }
        }
        if !isReady { found = nil }
        guard let found else {
            process.terminate()
            throw ServeProcessError.didNotStart(String(decoding: stderrData.data, as: UTF8.self))
        }
        port = found
    }

    var stdout: String { String(decoding: stdoutData.data, as: UTF8.self) }
    var stderr: String { String(decoding: stderrData.data, as: UTF8.self) }
    var stdoutLines: [String] { stdout.split(separator: "\n").map(String.init) }
    var isRunning: Bool { process.isRunning }
    var processIdentifier: Int32 { process.processIdentifier }

    func signal(_ number: Int32) { Foundation.kill(process.processIdentifier, number) }

    /// Sends `signal` and waits (at most `timeout`) for the process to end.
    func stop(signal number: Int32 = SIGTERM, timeout: TimeInterval = 20) throws -> ToolResult {
        signal(number)
        return try wait(timeout: timeout)
    }

    func wait(timeout: TimeInterval = 20) throws -> ToolResult {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning {
            kill()
            throw ServeProcessError.didNotStop(stderr)
        }
        _ = readers.wait(timeout: .now() + 5)
        return ToolResult(status: process.terminationStatus, stdout: stdout, stderr: stderr)
    }

    /// Ends it at once (for cleanup after a failed expectation).
    func kill() {
        if process.isRunning { Foundation.kill(process.processIdentifier, SIGKILL) }
    }

    /// Waits until stdout has at least `count` lines.
    func waitForLines(_ count: Int, timeout: TimeInterval = 10) -> [String] {
        let deadline = Date().addingTimeInterval(timeout)
        while stdoutLines.count < count && Date() < deadline { usleep(10_000) }
        return stdoutLines
    }
}

enum ServeProcessError: Error, CustomStringConvertible {
    case didNotStart(String)
    case didNotStop(String)
    var description: String {
        switch self {
        case .didNotStart(let stderr): return "serve did not start listening (or subscribing); stderr: \(stderr)"
        case .didNotStop(let stderr): return "serve did not stop in time; stderr: \(stderr)"
        }
    }
}

/// Runs Debian's curl (installed by Scripts/setup.sh) and returns the status code and body.
func curl(_ arguments: [String], stdin: Data? = nil) async throws -> (status: Int, body: String, stderr: String) {
    let path = "/usr/bin/curl"
    guard FileManager.default.isExecutableFile(atPath: path) else {
        throw ServeProcessError.didNotStart("curl is missing: run bash Scripts/setup.sh")
    }
    let result = try await runProcess(
        path, ["--silent", "--show-error", "--max-time", "20", "--write-out", "\n%{http_code}"] + arguments,
        stdin: stdin, timeout: 30)
    let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
    let status = Int(lines.last ?? "") ?? -1
    return (status, lines.dropLast().joined(separator: "\n"), result.stderr)
}

/// Bytes a reader thread appends while the test reads them.
final class StreamBuffer: Sendable {
    private let bytes = Mutex(Data())
    func append(_ chunk: Data) { bytes.withLock { $0.append(chunk) } }
    var data: Data { bytes.withLock { $0 } }
}
