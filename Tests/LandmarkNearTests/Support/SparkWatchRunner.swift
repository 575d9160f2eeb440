import Foundation

enum SparkWatchRunnerError: Error, CustomStringConvertible {
    case noVenv(String)
    var description: String {
        switch self {
        case .noVenv(let path): return "\(path) is missing: run bash Scripts/setup.sh (Java 17 and pyspark for Scripts/spark-watch.py)"
        }
    }
}

/// The test venv's Python (Scripts/setup.sh makes it, with pyspark).
func venvPython() throws -> URL {
    let python = repositoryRoot.appendingPathComponent(".venv/bin/python")
    guard FileManager.default.isExecutableFile(atPath: python.path) else { throw SparkWatchRunnerError.noVenv(python.path) }
    return python
}

/// Runs `Scripts/spark-watch.py` with `python` (the venv's by default), killed after `timeout`.
/// (Its Spark JVM ends with it: PySpark's gateway exits when its Python goes.)
func runSparkWatch(_ arguments: [String], python: URL? = nil, timeout: Double) async throws -> ProcessResult {
    try await runProcess(
        try (python ?? venvPython()).path,
        [repositoryRoot.appendingPathComponent("Scripts/spark-watch.py").path] + arguments, timeout: timeout)
}
