/// Splits CSV lines into cells (RFC 4180 quoting: `"a, b"` and `""` inside quotes), for the
/// CSV fix reader and the CSV catalog alike.
///
///     CSVLine.fields(of: #"1,"Lake ""Blue""",3"#)   // ["1", "Lake \"Blue\"", "3"]
///
/// Lines without a double quote (the usual case, and the hot path) are split on commas in
/// place, as views into the line; lines with quotes are unquoted as Strings, whose bytes a
/// `CSVLine.QuotedCells` keeps until the next line.
@_spi(Inlining) public enum CSVLine {
    public typealias Bytes = UnsafeBufferPointer<UInt8>

    /// The cells of `line`, at most `maximumCount` of them (the rest is not split), replacing
    /// the contents of `cells`. Views into a quoted line's cells stay valid until `quoted` is
    /// used again.
    @inlinable
    public static func cells(of line: Bytes, into cells: inout [Bytes], quoted: QuotedCells, maximumCount: Int = .max) {
        cells.removeAll(keepingCapacity: true)
        if line.contains(UInt8(ascii: "\"")) {
            quoted.store(fields(of: String(decoding: line, as: UTF8.self)).prefix(maximumCount), into: &cells)
            return
        }
        var lower = 0
        while cells.count < maximumCount {
            var upper = lower
            while upper < line.count, line[upper] != UInt8(ascii: ",") { upper += 1 }
            cells.append(Bytes(rebasing: line[lower..<upper]))
            if upper >= line.count { break }
            lower = upper + 1
        }
    }

    static func fields(of line: Substring, separator: Character = ",") -> [String] {
        var fields: [String] = []
        var field = ""
        var inQuotes = false
        var index = line.startIndex
        while index < line.endIndex {
            let char = line[index]
            if inQuotes {
                if char == "\"" {
                    let next = line.index(after: index)
                    if next < line.endIndex && line[next] == "\"" {
                        field.append("\"")
                        index = next
                    } else {
                        inQuotes = false
                    }
                } else {
                    field.append(char)
                }
            } else if char == "\"" && field.isEmpty {
                inQuotes = true
            } else if char == separator {
                fields.append(field)
                field = ""
            } else {
                field.append(char)
            }
            index = line.index(after: index)
        }
        fields.append(field)
        return fields
    }

    @usableFromInline
    package static func fields(of line: String, separator: Character = ",") -> [String] {
        fields(of: line[...], separator: separator)
    }

    /// The header name folded for matching: trimmed, lower-cased, BOM removed.
    package static func normalizedHeader(_ name: String) -> String {
        ASCIIBlanks.spacesAndTabs.trimming(ByteOrderMark.dropped(from: name[...])).lowercased()
    }

    /// `boolean(String)` of a cell's bytes; ASCII cells (all but odd ones) are read without
    /// making the String (the catalog loader reads one a row).
    @inlinable
    public static func boolean(_ cell: UnsafeBufferPointer<UInt8>) -> Bool? {
        let trimmed = ASCIIBlanks.spacesAndTabs.trimming(cell)
        guard trimmed.count <= 5, trimmed.allSatisfy({ $0 < 0x80 }) else { return boolean(String(decoding: cell, as: UTF8.self)) }
        var word: UInt64 = 0
        for (k, byte) in trimmed.enumerated() {
            // ASCII letters to lower case (digits and other bytes never match a letter).
            let lower = (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte
            word |= UInt64(lower) << (8 * UInt64(k))
        }
        switch word {
        case Self.word("true"), Self.word("1"), Self.word("yes"), Self.word("y"), Self.word("t"): return true
        case Self.word("false"), Self.word("0"), Self.word("no"), Self.word("n"), Self.word("f"), 0: return false
        default: return nil
        }
    }

    @inlinable @inline(__always)
    static func word(_ text: StaticString) -> UInt64 {
        var word: UInt64 = 0
        for k in 0..<text.utf8CodeUnitCount { word |= UInt64(text.utf8Start[k]) << (8 * UInt64(k)) }
        return word
    }

    /// Parses a boolean cell: true/false, 1/0, yes/no (any case).
    @usableFromInline
    package static func boolean(_ cell: String) -> Bool? {
        switch ASCIIBlanks.spacesAndTabs.trimming(cell).lowercased() {
        case "true", "1", "yes", "y", "t": return true
        case "false", "0", "no", "n", "f", "": return false
        default: return nil
        }
    }

    /// Owns the bytes of a quoted line's unquoted cells, so they can be handed out as views.
    public final class QuotedCells {
        private var storage = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 256)

        public init() {}

        @usableFromInline
        func store(_ fields: some Collection<String>, into cells: inout [Bytes]) {
            let total = fields.reduce(0) { $0 + $1.utf8.count }
            if total > storage.count {
                storage.deallocate()
                storage = .allocate(capacity: total)
            }
            var offset = 0
            for field in fields {
                let start = offset
                for byte in field.utf8 {
                    storage[offset] = byte
                    offset += 1
                }
                cells.append(Bytes(rebasing: storage[start..<offset]))
            }
        }

        deinit { storage.deallocate() }
    }
}
