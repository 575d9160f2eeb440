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
func runSparkWatch(_ arguments: [String], python: URL? = nil, timeout: Double) throws -> ProcessResult {
    try runProcess(try (python ?? venvPython()).path,
                   [repositoryRoot.appendingPathComponent("Scripts/spark-watch.py").path] + arguments, timeout: timeout)
}

/// Runs blocking work (a child process that takes minutes) on a thread of its own and awaits it,
/// so Swift Testing's cooperative pool — two threads on a two-core machine — stays free for the
/// other suites while Spark runs. (Blocking the pool there stalls every other test until their
/// time limits pass.)
func offPool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread { continuation.resume(with: Result { try body() }) }
    }
}
