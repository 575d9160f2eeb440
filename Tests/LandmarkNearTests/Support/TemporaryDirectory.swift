import Foundation

/// A fresh, empty directory under the system's temporary directory; the caller removes it.
///
///     let directory = try makeTemporaryDirectory("nearest")
///     defer { try? FileManager.default.removeItem(at: directory) }
func makeTemporaryDirectory(_ prefix: String = "landmark-near-tests") throws -> URL {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    return directory
}
