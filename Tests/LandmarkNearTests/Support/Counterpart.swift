import Foundation
import Testing

/// The test venv's Python (Scripts/setup.sh makes `<repo>/.venv`).
func counterpartPython() throws -> URL {
    let python = repositoryRoot.appendingPathComponent(".venv/bin/python")
    guard FileManager.default.isExecutableFile(atPath: python.path) else {
        throw CounterpartError(description: "\(python.path) is missing: run bash Scripts/setup.sh")
    }
    return python
}

struct CounterpartError: Error, CustomStringConvertible {
    var description: String
}

/// Runs a script of Tests/Counterparts with the venv's Python; kills it after `timeout` seconds.
func runCounterpart(_ script: String, _ arguments: [String], timeout: TimeInterval = 90) throws -> ToolResult {
    let process = Process()
    process.executableURL = try counterpartPython()
    process.arguments = [repositoryRoot.appendingPathComponent("Tests/Counterparts/\(script)").path] + arguments
    let output = Pipe(), errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let collected = CollectedOutput()
    let group = DispatchGroup()
    group.enter()
    DispatchQueue.global().async { collected.setStdout(output.fileHandleForReading.readDataToEndOfFile()); group.leave() }
    group.enter()
    DispatchQueue.global().async { collected.setStderr(errors.fileHandleForReading.readDataToEndOfFile()); group.leave() }
    if group.wait(timeout: .now() + timeout) == .timedOut {
        process.terminate()
        group.wait()
        throw CounterpartError(description: "\(script) did not finish within \(Int(timeout)) s")
    }
    process.waitUntilExit()
    return ToolResult(status: process.terminationStatus,
                      stdout: String(decoding: collected.stdout, as: UTF8.self),
                      stderr: String(decoding: collected.stderr, as: UTF8.self))
}
