import Foundation

/// What a run of the built `landmark-near` printed and how it ended.
struct ToolResult {
    var status: Int32
    var stdout: String
    var stderr: String
}

enum ToolRunnerError: Error, CustomStringConvertible {
    case executableNotFound(String)

    var description: String {
        switch self {
        case .executableNotFound(let path):
            return "landmark-near is not built at \(path) (run swift build first)"
        }
    }
}

/// The built `landmark-near` executable: it sits beside the test bundle in the build directory.
func toolExecutableURL() -> URL {
    Bundle.module.bundleURL.deletingLastPathComponent().appendingPathComponent("landmark-near")
}

/// Runs the built `landmark-near` with `arguments`, feeding `stdin` (none: an empty stdin) and
/// capturing stdout, stderr and the exit status. Output goes through temporary files, so a
/// chatty run cannot fill a pipe and hang.
///
///     let result = try runTool(["nearest", "34", "-116"])
///     #expect(result.status == 0)
func runTool(_ arguments: [String], stdin: String? = nil, currentDirectory: URL? = nil) throws -> ToolResult {
    let executable = toolExecutableURL()
    guard FileManager.default.isExecutableFile(atPath: executable.path) else {
        throw ToolRunnerError.executableNotFound(executable.path)
    }
    let scratch = FileManager.default.temporaryDirectory
        .appendingPathComponent("landmark-near-tool-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: scratch) }
    let inputURL = scratch.appendingPathComponent("stdin")
    let outputURL = scratch.appendingPathComponent("stdout")
    let errorURL = scratch.appendingPathComponent("stderr")
    try Data((stdin ?? "").utf8).write(to: inputURL)
    _ = FileManager.default.createFile(atPath: outputURL.path, contents: nil)
    _ = FileManager.default.createFile(atPath: errorURL.path, contents: nil)

    let input = try FileHandle(forReadingFrom: inputURL)
    let output = try FileHandle(forWritingTo: outputURL)
    let error = try FileHandle(forWritingTo: errorURL)
    defer {
        try? input.close()
        try? output.close()
        try? error.close()
    }
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    if let currentDirectory { process.currentDirectoryURL = currentDirectory }
    process.standardInput = input
    process.standardOutput = output
    process.standardError = error
    try process.run()
    process.waitUntilExit()
    return ToolResult(
        status: process.terminationStatus,
        stdout: String(decoding: try Data(contentsOf: outputURL), as: UTF8.self),
        stderr: String(decoding: try Data(contentsOf: errorURL), as: UTF8.self))
}
