import Foundation
import Glibc
@_spi(Inlining) import LandmarkNearCore

/// Writes a map file (HTML or GeoJSON) atomically: a temporary file beside it, renamed over it
/// (a link is followed; a FIFO or a device is written in place: see `OutputFile`).
///
///     try MapFile.write(html, to: "run.html")
package enum MapFile {
    package static func write(_ text: String, to path: String) throws(MapFileError) {
        let target: String
        switch OutputFile.target(of: path) {
        case .inPlace(let device):
            if let reason = OutputFile.writeInPlace(Array(text.utf8), to: device) { throw MapFileError(path: path, reason: reason) }
            return
        case .replace(let file):
            target = file
        }
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: target), options: .atomic)
        } catch {
            let reason = (error as NSError).localizedFailureReason ?? (error as NSError).localizedDescription
            throw MapFileError(path: path, reason: reason)
        }
    }
}

extension MapFile {
    /// Whether a map file could be written at `path`, checked before a run reads its first fix
    /// (a live stream may run for hours before the file is written): the directory exists, is
    /// a directory and takes new files, and the path is not a directory itself.
    package static func checkWritable(_ path: String) throws(MapFileError) {
        var status = stat()
        if stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR {
            throw MapFileError(path: path, reason: "is a directory; give a file name")
        }
        guard case .replace(let file) = OutputFile.target(of: path) else { return }
        let directory = (file as NSString).deletingLastPathComponent.isEmpty ? "." : (file as NSString).deletingLastPathComponent
        let shown = TerminalText.safe(directory)
        guard stat(directory, &status) == 0 else {
            throw MapFileError(path: path, reason: "the directory \(shown) does not exist (create it first)")
        }
        guard status.st_mode & S_IFMT == S_IFDIR else { throw MapFileError(path: path, reason: "\(shown) is not a directory") }
        guard access(directory, W_OK | X_OK) == 0 else {
            throw MapFileError(path: path, reason: "cannot create files in \(shown): \(String(cString: strerror(errno)))")
        }
    }
}

/// A map file that could not be written (`.io`).
package struct MapFileError: LandmarkNearError, Sendable {
    package var path: String
    package var reason: String
    package var kind: ErrorKind { .io }
    /// `<path>: <reason>`, the path made safe for a terminal.
    package var description: String { TerminalText.safe(path) + ": " + reason }
}
