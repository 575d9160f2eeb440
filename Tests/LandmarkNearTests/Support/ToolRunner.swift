import Foundation

/// What a run of the built `landmark-near` printed and how it exited.
struct ToolResult {
    var status: Int32
    var stdout: String
    var stderr: String
}

/// The built `landmark-near` executable: it sits next to the test bundle in the build directory.
private func toolURL() -> URL {
    Bundle.module.bundleURL.deletingLastPathComponent().appendingPathComponent("landmark-near")
}

/// Runs `landmark-near` with `arguments`, feeding `stdin` (empty when nil), and captures its
/// output. stdout and stderr go through temporary files, so large outputs cannot deadlock.
func runTool(_ arguments: [String], stdin: String? = nil, currentDirectory: URL? = nil) throws -> ToolResult {
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("tool-run-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: scratch) }
    let inURL = scratch.appendingPathComponent("stdin")
    let outURL = scratch.appendingPathComponent("stdout")
    let errURL = scratch.appendingPathComponent("stderr")
    try Data((stdin ?? "").utf8).write(to: inURL)
    _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
    _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
    let input = try FileHandle(forReadingFrom: inURL)
    let output = try FileHandle(forWritingTo: outURL)
    let errors = try FileHandle(forWritingTo: errURL)
    defer {
        try? input.close()
        try? output.close()
        try? errors.close()
    }
    let process = Process()
    process.executableURL = toolURL()
    process.arguments = arguments
    if let currentDirectory { process.currentDirectoryURL = currentDirectory }
    process.standardInput = input
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    process.waitUntilExit()
    return ToolResult(status: process.terminationStatus,
                      stdout: String(decoding: try Data(contentsOf: outURL), as: UTF8.self),
                      stderr: String(decoding: try Data(contentsOf: errURL), as: UTF8.self))
}
