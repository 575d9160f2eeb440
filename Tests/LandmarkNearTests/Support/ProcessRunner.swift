import Foundation

/// What a finished child process produced.
struct ProcessResult: Sendable {
    var status: Int32
    var stdout: String
    var stderr: String
}

enum ProcessRunnerError: Error, CustomStringConvertible {
    case timedOut(String, seconds: Double)
    var description: String {
        switch self {
        case .timedOut(let command, let seconds): return "\(command) did not end within \(seconds) s; killed"
        }
    }
}

/// A child that does not read its stdin makes our write fail with EPIPE once it is gone; that
/// must be an error to ignore, not a SIGPIPE that ends the whole test run.
private let ignoringBrokenPipes: Void = { signal(SIGPIPE, SIG_IGN) }()

/// Runs a program to its end with optional stdin, extra environment variables and a timeout:
/// a child that outlives `timeout` is killed and the call throws, so a blocked pipe (a child
/// that stops reading its stdin, or never ends) fails the test instead of hanging the run.
/// stdin is written and stdout and stderr are read on threads of their own, so that no pipe
/// can fill up and block either side.
///
/// It is async and does its waiting on a thread of its own: tests run on Swift's cooperative
/// pool (two threads on a 2-core machine), and a test that blocks one of them holds up every
/// other test, whose time limits run all the same.
func runProcess(
    _ executable: String, _ arguments: [String], stdin: Data? = nil,
    environment: [String: String] = [:], currentDirectory: URL? = nil,
    timeout: Double = 60
) async throws -> ProcessResult {
    await ProcessSlots.shared.acquire()
    defer { Task { await ProcessSlots.shared.release() } }
    return try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread {
            continuation.resume(
                with: Result {
                    try runProcessWaiting(
                        executable, arguments, stdin: stdin, environment: environment,
                        currentDirectory: currentDirectory, timeout: timeout)
                })
        }
    }
}

/// The same, waiting on the calling thread (a thread of its own, from `runProcess`).
private func runProcessWaiting(
    _ executable: String, _ arguments: [String], stdin: Data? = nil,
    environment: [String: String] = [:], currentDirectory: URL? = nil,
    timeout: Double = 60
) throws -> ProcessResult {
    _ = ignoringBrokenPipes
    let process = ChildProcess()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    if !environment.isEmpty {
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    }
    if let currentDirectory { process.currentDirectoryURL = currentDirectory }
    let input = Pipe()
    let output = Pipe()
    let errors = Pipe()
    process.standardInput = input
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    let group = DispatchGroup()
    let collected = CollectedOutput()
    group.enter()
    DispatchQueue.global().async {
        collected.setStdout(output.fileHandleForReading.readDataToEndOfFile())
        group.leave()
    }
    group.enter()
    DispatchQueue.global().async {
        collected.setStderr(errors.fileHandleForReading.readDataToEndOfFile())
        group.leave()
    }
    group.enter()
    DispatchQueue.global().async {
        // A child that exits without reading all of stdin breaks the pipe: not our error.
        if let stdin { try? input.fileHandleForWriting.write(contentsOf: stdin) }
        try? input.fileHandleForWriting.close()
        group.leave()
    }
    if group.wait(timeout: .now() + timeout) == .timedOut {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        throw ProcessRunnerError.timedOut(([executable] + arguments).joined(separator: " "), seconds: timeout)
    }
    process.waitUntilExit()
    return ProcessResult(
        status: process.terminationStatus,
        stdout: String(decoding: collected.stdout, as: UTF8.self),
        stderr: String(decoding: collected.stderr, as: UTF8.self))
}

/// Bounds how many children the tests run at once. Awaiting a child frees the test's thread, so
/// without a bound every end-to-end test would start its process at the same moment and the
/// 2-core machine would run dozens of them side by side, each too slow for its time limit.
actor ProcessSlots {
    static let shared = ProcessSlots(count: max(2, ProcessInfo.processInfo.activeProcessorCount))

    private var free: Int
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(count: Int) { free = count }

    func acquire() async {
        if free > 0 {
            free -= 1
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    func release() {
        if waiting.isEmpty {
            free += 1
        } else {
            waiting.removeFirst().resume()
        }
    }
}
