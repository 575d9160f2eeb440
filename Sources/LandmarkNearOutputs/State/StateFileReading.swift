import Foundation
@_spi(Inlining) import LandmarkNearCore

/// A `--state` file opened to be read by another command (`state check`, `devices`): read-only
/// and without the lock, so it works beside a running `serve` (an SQLite reader of the WAL sees
/// the last committed batch). A file at rest (no WAL beside it: no run has it open) is opened
/// immutable, so that reading it leaves nothing behind; a read-only connection to a database in
/// WAL mode would make its -wal and -shm files and leave them there.
enum StateFileReading {
    /// `.missingInput` when there is no such file, it is a directory, or it cannot be opened.
    static func open(_ path: String) throws(StateError) -> SQLiteDatabase {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw StateError(.missingInput, path: path, reason: "no such file")
        }
        guard !isDirectory.boolValue else { throw StateError(.missingInput, path: path, reason: "is a directory") }
        guard FileManager.default.isReadableFile(atPath: path) else {
            throw StateError(.missingInput, path: path, reason: "cannot be opened: permission denied")
        }
        do {
            let atRest = !FileManager.default.fileExists(atPath: path + "-wal") && !FileManager.default.fileExists(atPath: path + "-shm")
            let encoded = path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? path
            return try SQLiteDatabase(path: path, readOnly: true, uri: atRest ? "file:\(encoded)?immutable=1" : nil)
        } catch {
            throw StateError(.missingInput, path: path, reason: error.reason)
        }
    }
}
