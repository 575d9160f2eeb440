import Foundation

enum SparkWatchRunnerError: Error, CustomStringConvertible {
    case noVenv(String)
    case timedOut([String], TimeInterval)
    var description: String {
        switch self {
        case .noVenv(let path): return "\(path) is missing: run bash Scripts/setup.sh (Java 17 and pyspark for Scripts/spark-watch.py)"
        case .timedOut(let arguments, let seconds): return "spark-watch.py \(arguments.joined(separator: " ")) did not end within \(Int(seconds)) s"
        }
    }
}

/// The test venv's Python (Scripts/setup.sh makes it, with pyspark).
func venvPython() throws -> URL {
    let python = repositoryRoot.appendingPathComponent(".venv/bin/python")
    guard FileManager.default.isExecutableFile(atPath: python.path) else { throw SparkWatchRunnerError.noVenv(python.path) }
    return python
}

/// Runs `Scripts/spark-watch.py` with `python` (the venv's by default), killing it after `timeout`.
func runSparkWatch(_ arguments: [String], python: URL? = nil, timeout: TimeInterval) throws -> ToolResult {
    let process = Process()
    process.executableURL = try python ?? venvPython()
    process.arguments = [repositoryRoot.appendingPathComponent("Scripts/spark-watch.py").path] + arguments
    let output = Pipe(), errors = Pipe()
    process.standardInput = FileHandle.nullDevice
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
    if group.wait(timeout: .now() + timeout) == .timedOut {
        // The script's own process group would take Spark's JVM along; the script itself is
        // enough here (its JVM exits when the Python gateway goes).
        process.terminate()
        process.waitUntilExit()
        throw SparkWatchRunnerError.timedOut(arguments, timeout)
    }
    process.waitUntilExit()
    return ToolResult(status: process.terminationStatus,
                      stdout: String(decoding: collected.stdout, as: UTF8.self),
                      stderr: String(decoding: collected.stderr, as: UTF8.self))
}
