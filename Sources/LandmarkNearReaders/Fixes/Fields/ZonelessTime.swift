@_spi(Inlining) import LandmarkNearCore

/// The first time without a zone an input held (`2024-05-01 12:00:00`, `2024-05-01T12:00:00`):
/// read as UTC like every other, and said once a run, with where it was, so that a local-time
/// export is not silently hours off (docs/reference/fixes.md#times). NMEA and GPX times are UTC by
/// their formats' definitions, and GPSBabel's separate date and time columns by its own: those
/// readers note nothing.
///
///     ZonelessTime(line: 2, bytes: Array("2024-05-01 12:00:00".utf8)).warning(source: "f.csv")
///     // times without a zone (f.csv line 2: "2024-05-01 12:00:00") are read as UTC; add Z or an offset to say otherwise
package struct ZonelessTime: Sendable, Equatable {
    package var line: Int
    /// The time as written, shortened to 40 bytes (a long fraction says nothing more).
    package var text: String

    package init(line: Int, bytes: some Collection<UInt8>) {
        self.line = line
        text = String(decoding: bytes.prefix(40), as: UTF8.self) + (bytes.count > 40 ? "…" : "")
    }

    /// The warning's words after `COMMAND: warning: ` (the caller makes the line terminal-safe).
    package func warning(source: String) -> String {
        "times without a zone (\(source) line \(line): \"\(text)\") are read as UTC; add Z or an offset to say otherwise"
    }
}
