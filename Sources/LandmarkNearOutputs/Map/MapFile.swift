import Foundation
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

/// A map file that could not be written (`.io`).
package struct MapFileError: LandmarkNearError, Sendable {
    package var path: String
    package var reason: String
    package var kind: ErrorKind { .io }
    /// `<path>: <reason>`, the path made safe for a terminal.
    package var description: String { TerminalText.safe(path) + ": " + reason }
}
