@_spi(Inlining) import LandmarkNearCore

/// Decides the format of a fix input from its first line that settles it (docs/reference/fixes.md), so that
/// a live stream starts being read at once.
///
/// It skips a UTF-8 byte-order mark, blank lines and lines starting with `#` (gpsd's logs begin
/// with comments), and gpsd's JSON header reports (`VERSION`, `DEVICES`, `DEVICE`, `WATCH`,
/// `ERROR`: `gpspipe -r` prints them before its NMEA sentences). Then the first line decides:
/// - `$` or `!`: NMEA;
/// - `<`: XML (GPX, KML or TCX, told apart later by the root element);
/// - `{` alone, or an object (complete on its line or not) whose first key is `"type"` with a
///   GeoJSON type (`FeatureCollection`, `Feature`, `LineString`, ...): a GeoJSON document;
/// - any other `{`: NDJSON; an OwnTracks recorder line (`TIME<TAB>FLAG<TAB>{`) too;
/// - anything else: CSV (its header row).
///
///     FormatDetector.detect(Array("{\"class\":\"VERSION\"}\n$GPRMC,...\n".utf8)[...], isComplete: true)   // .nmea
enum FormatDetector {
    enum Decision: Equatable {
        case ndjson, csv, nmea, geojson
        /// GPX, KML or TCX: the root element decides.
        case xml
    }

    /// gpsd's report classes that say nothing about the format of what follows.
    static let gpsdHeaderClasses: [String] = ["VERSION", "DEVICES", "DEVICE", "WATCH", "ERROR"]
    /// GeoJSON's `type` values (RFC 7946).
    static let geoJSONTypes: [String] = [
        "FeatureCollection", "Feature", "Point", "MultiPoint", "LineString",
        "MultiLineString", "Polygon", "MultiPolygon", "GeometryCollection",
    ]

    /// The decision, or nil when `bytes` (the start of the input) does not settle it yet and
    /// more may come. With `isComplete` (the end of input, or as much as will be looked at) it
    /// always decides; an input with no meaningful line counts as NDJSON.
    static func detect(_ bytes: UnsafeBufferPointer<UInt8>, isComplete: Bool) -> Decision? {
        if !isComplete && ByteOrderMark.mayBegin(bytes) { return nil }
        var index = ByteOrderMark.length(of: bytes)
        while index < bytes.count {
            while index < bytes.count, ASCIIBlanks.whitespace.contains(bytes[index]), bytes[index] != 0x0A { index += 1 }
            guard index < bytes.count else { break }
            var lineEnd = index
            while lineEnd < bytes.count, bytes[lineEnd] != 0x0A { lineEnd += 1 }
            let lineIsComplete = lineEnd < bytes.count || isComplete
            let line = UnsafeBufferPointer(rebasing: bytes[index..<lineEnd])
            index = lineEnd + 1
            guard let lead = line.first else { continue }
            switch lead {
            case UInt8(ascii: "#"):
                if lineIsComplete { continue }
                return nil
            case UInt8(ascii: "$"), UInt8(ascii: "!"):
                return .nmea
            case UInt8(ascii: "<"):
                return .xml
            case UInt8(ascii: "{"):
                switch object(line, isComplete: lineIsComplete) {
                case .decided(let decision): return decision
                case .header: continue
                case .needMore: return nil
                }
            default:
                if UInt8(ascii: "0")...UInt8(ascii: "9") ~= lead {
                    switch recorderLine(line) {
                    case true?: return .ndjson
                    case nil where !lineIsComplete: return nil
                    default: break
                    }
                }
                return .csv
            }
        }
        return isComplete ? .ndjson : nil
    }

    static func detect(_ bytes: ArraySlice<UInt8>, isComplete: Bool) -> Decision? {
        bytes.withUnsafeBufferPointer { detect($0, isComplete: isComplete) }
    }

    private enum ObjectLine {
        case decided(Decision)
        case header
        case needMore
    }

    /// A line starting with `{`: its first key and string value decide.
    private static func object(_ line: UnsafeBufferPointer<UInt8>, isComplete: Bool) -> ObjectLine {
        var scanner = Scanner(bytes: line, index: 1)
        scanner.skipSpace()
        guard let next = scanner.peek else {
            // `{` alone on its line starts a pretty-printed document.
            return isComplete ? .decided(.geojson) : .needMore
        }
        guard next == UInt8(ascii: "\"") else { return .decided(.ndjson) }
        guard let key = scanner.string() else { return isComplete ? .decided(.ndjson) : .needMore }
        guard key == "type" || key == "class" else { return .decided(.ndjson) }
        scanner.skipSpace()
        guard let colon = scanner.peek else { return isComplete ? .decided(.ndjson) : .needMore }
        guard colon == UInt8(ascii: ":") else { return .decided(.ndjson) }
        scanner.index += 1
        scanner.skipSpace()
        guard let quote = scanner.peek else { return isComplete ? .decided(.ndjson) : .needMore }
        guard quote == UInt8(ascii: "\"") else { return .decided(.ndjson) }
        guard let value = scanner.string() else { return isComplete ? .decided(.ndjson) : .needMore }
        if key == "type" { return .decided(geoJSONTypes.contains(value) ? .geojson : .ndjson) }
        guard gpsdHeaderClasses.contains(value) else { return .decided(.ndjson) }
        // The header is skipped as a whole line: wait for its end.
        return isComplete ? .header : .needMore
    }

    /// Whether `line` is an OwnTracks recorder line, `TIME<TAB>FLAG<TAB>{json}`; nil while the
    /// part that decides has not arrived.
    static func recorderLine(_ line: UnsafeBufferPointer<UInt8>) -> Bool? {
        var tabs = 0
        for byte in line {
            if tabs == 2 { return byte == UInt8(ascii: "{") }
            if byte == 0x09 { tabs += 1 } else if byte == UInt8(ascii: ",") { return false }
        }
        return tabs == 2 ? nil : (tabs < 2 ? nil : false)
    }

    /// A cursor over one line for the few JSON tokens detection looks at.
    private struct Scanner {
        let bytes: UnsafeBufferPointer<UInt8>
        var index: Int

        var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

        mutating func skipSpace() {
            while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 || bytes[index] == 0x0D { index += 1 }
        }

        /// A string without escapes at the cursor (a quote), or nil when it does not end here.
        mutating func string() -> String? {
            let start = index + 1
            var end = start
            while end < bytes.count, bytes[end] != UInt8(ascii: "\"") {
                if bytes[end] == UInt8(ascii: "\\") { return "\\" }
                end += 1
            }
            guard end < bytes.count else { return nil }
            index = end + 1
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
        }
    }
}
