import Foundation

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
func runCounterpart(_ script: String, _ arguments: [String], timeout: Double = 90) async throws -> ProcessResult {
    try await runProcess(try counterpartPython().path,
                   [repositoryRoot.appendingPathComponent("Tests/Counterparts/\(script)").path] + arguments,
                   timeout: timeout)
}
