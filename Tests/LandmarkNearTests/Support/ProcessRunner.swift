import Foundation

/// What a finished child process produced.
struct ProcessResult {
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

/// Runs a program to its end with optional stdin, extra environment variables and a timeout:
/// a child that outlives `timeout` is killed and the call throws, so a blocked pipe fails the
/// test instead of hanging the run.
func runProcess(_ executable: String, _ arguments: [String], stdin: Data? = nil,
                environment: [String: String] = [:], currentDirectory: URL? = nil,
                timeout: Double = 60) throws -> ProcessResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    if !environment.isEmpty {
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    }
    if let currentDirectory { process.currentDirectoryURL = currentDirectory }
    let input = Pipe(), output = Pipe(), errors = Pipe()
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
    if let stdin { input.fileHandleForWriting.write(stdin) }
    try input.fileHandleForWriting.close()
    if group.wait(timeout: .now() + timeout) == .timedOut {
        process.terminate()
        kill(process.processIdentifier, SIGKILL)
        throw ProcessRunnerError.timedOut(([executable] + arguments).joined(separator: " "), seconds: timeout)
    }
    process.waitUntilExit()
    return ProcessResult(status: process.terminationStatus,
                         stdout: String(decoding: collected.stdout, as: UTF8.self),
                         stderr: String(decoding: collected.stderr, as: UTF8.self))
}
