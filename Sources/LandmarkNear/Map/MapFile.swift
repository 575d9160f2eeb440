import Foundation

/// Writes a map file (HTML or GeoJSON) atomically: a temporary file beside it, renamed over it.
///
///     try MapFile.write(html, to: "run.html")
package enum MapFile {
    package static func write(_ text: String, to path: String) throws(MapFileError) {
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            let reason = (error as NSError).localizedFailureReason ?? (error as NSError).localizedDescription
            throw MapFileError(path: path, reason: reason)
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
