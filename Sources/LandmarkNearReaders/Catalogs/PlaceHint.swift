import Foundation

/// A cheap look at the start of a catalog file: whether it seems to hold places (areas or
/// lines), before it is read. A hint for scheduling only (`FixReadAhead`): a start-up with
/// places measures them on both cores, and the fix reader then yields to it; nothing about what
/// is read or decided depends on the answer, so a wrong one costs time, never an answer.
///
/// What counts, in the first 64 KiB: a JSON member `"type"` whose value is `"Polygon"`,
/// `"MultiPolygon"`, `"LineString"` or `"MultiLineString"` (a GeoJSON geometry, also inside a
/// tutorial JSON catalog's `geometry`), or a first line with a `wkt` column (a CSV catalog).
/// A file that cannot be read says no (the load then reports why).
///
///     PlaceHint.mayHoldPlaces(path: "parks.geojson")    // true
///     PlaceHint.mayHoldPlaces(path: "cities.csv")       // false
package enum PlaceHint {
    /// How much of the file is looked at.
    static let prefixBytes = 64 << 10

    package static func mayHoldPlaces(path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        guard let data = try? handle.read(upToCount: prefixBytes) else { return false }
        return mayHoldPlaces(Array(data))
    }

    static func mayHoldPlaces(_ bytes: [UInt8]) -> Bool {
        hasPlaceType(bytes) || hasWKTColumn(bytes)
    }

    private static let placeTypes: [[UInt8]] = ["Polygon", "MultiPolygon", "LineString", "MultiLineString"].map {
        Array("\"\($0)\"".utf8)
    }

    /// Whether some `"type"` member has a place's type as its value.
    private static func hasPlaceType(_ bytes: [UInt8]) -> Bool {
        let key = Array("\"type\"".utf8)
        var i = 0
        while let at = find(key, in: bytes, from: i) {
            var j = at + key.count
            while j < bytes.count, isSpace(bytes[j]) { j += 1 }
            if j < bytes.count, bytes[j] == UInt8(ascii: ":") {
                j += 1
                while j < bytes.count, isSpace(bytes[j]) { j += 1 }
                if placeTypes.contains(where: { starts(bytes, with: $0, at: j) }) { return true }
            }
            i = at + 1
        }
        return false
    }

    /// Whether the first line, split at commas, has a cell `wkt` (any case, quotes and spaces
    /// around it allowed).
    private static func hasWKTColumn(_ bytes: [UInt8]) -> Bool {
        let line = bytes.prefix { $0 != UInt8(ascii: "\n") && $0 != UInt8(ascii: "\r") }
        return line.split(separator: UInt8(ascii: ",")).contains { cell in
            let name = String(decoding: cell, as: UTF8.self).trimmingCharacters(in: CharacterSet(charactersIn: " \t\"\u{FEFF}"))
            return name.lowercased() == "wkt"
        }
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    private static func starts(_ bytes: [UInt8], with prefix: [UInt8], at index: Int) -> Bool {
        index + prefix.count <= bytes.count && bytes[index..<index + prefix.count].elementsEqual(prefix)
    }

    private static func find(_ needle: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        guard needle.count <= bytes.count else { return nil }
        var i = start
        while i + needle.count <= bytes.count {
            if bytes[i] == needle[0], starts(bytes, with: needle, at: i) { return i }
            i += 1
        }
        return nil
    }
}
