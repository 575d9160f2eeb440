import Foundation
import Synchronization
import Testing

/// What a run of the built `landmark-near` executable produced.
typealias ToolResult = ProcessResult

enum ToolRunnerError: Error, CustomStringConvertible {
    case executableNotFound([String])
    var description: String {
        switch self {
        case .executableNotFound(let looked): return "landmark-near executable not found; looked in: \(looked.joined(separator: ", "))"
        }
    }
}

/// The built `landmark-near`: it sits in the build products directory, next to the test bundle;
/// `LANDMARK_NEAR_TOOL` names another (the release build: `LANDMARK_NEAR_TOOL=$PWD/.build/release/landmark-near
/// swift test`), and then only that one will do: a name that is not an executable fails every
/// test that runs the tool, rather than testing the debug build in its place.
func toolExecutableURL() throws -> URL {
    if let named = ProcessInfo.processInfo.environment["LANDMARK_NEAR_TOOL"], !named.isEmpty {
        guard FileManager.default.isExecutableFile(atPath: named) else { throw ToolRunnerError.executableNotFound([named]) }
        return URL(fileURLWithPath: named)
    }
    var candidates: [URL] = []
    let bundleDirectory = Bundle.module.bundleURL.deletingLastPathComponent()
    candidates.append(bundleDirectory.appendingPathComponent("landmark-near"))
    for argument in [CommandLine.arguments.first, Bundle.main.executablePath].compactMap({ $0 }) {
        var url = URL(fileURLWithPath: argument).deletingLastPathComponent()
        for _ in 0..<4 {
            candidates.append(url.appendingPathComponent("landmark-near"))
            url = url.deletingLastPathComponent()
        }
    }
    for candidate in candidates where FileManager.default.isExecutableFile(atPath: candidate.path) {
        return candidate
    }
    throw ToolRunnerError.executableNotFound(candidates.map(\.path))
}

/// Runs `landmark-near` with arguments and optional stdin, waiting for it to end; a run that
/// takes longer than `timeout` seconds is killed and throws (see `runProcess`).
func runTool(_ arguments: [String], stdin: String? = nil, currentDirectory: URL? = nil, timeout: Double = 60) async throws -> ToolResult {
    try await runTool(arguments, stdinData: stdin.map { Data($0.utf8) }, currentDirectory: currentDirectory, timeout: timeout)
}

func runTool(_ arguments: [String], stdinData: Data?, currentDirectory: URL? = nil, timeout: Double = 60) async throws -> ToolResult {
    try await runProcess(toolExecutableURL().path, arguments, stdin: stdinData, currentDirectory: currentDirectory, timeout: timeout)
}

/// Output gathered by reader threads.
final class CollectedOutput: Sendable {
    private let out = Mutex(Data())
    private let err = Mutex(Data())
    func setStdout(_ data: Data) { out.withLock { $0 = data } }
    func setStderr(_ data: Data) { err.withLock { $0 = data } }
    var stdout: Data { out.withLock { $0 } }
    var stderr: Data { err.withLock { $0 } }
}

/// The repository root (for committed samples such as Samples/ and Payloads/).
let repositoryRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// Arguments and the exit status they must give, for parameterized command tests.
struct StatusCase: Sendable, CustomTestStringConvertible {
    var arguments: [String]
    var status: Int32
    init(_ arguments: [String], _ status: Int32) {
        self.arguments = arguments
        self.status = status
    }
    var testDescription: String { arguments.joined(separator: " ") + " -> \(status)" }
}
