@_spi(Inlining) import LandmarkNearCore

/// A `Localizable.strings` table: `"KEY" = "format";` entries with `/* */` and `//` comments,
/// escapes `\"` `\\` `\n` `\t` `\r` `\Uxxxx`, in UTF-8 or UTF-16 (with a byte-order mark).
/// Used to resolve the `*-loc-key`s of a localized alert the way the watch would.
///
///     let strings = try LocalizedStrings(parsing: #""NEAR" = "Near %1$@ (%2$@)";"#, source: "en.strings")
///     strings.format("NEAR", arguments: ["Icy Bay", "Alaska"])   // "Near Icy Bay (Alaska)"
package struct LocalizedStrings: Sendable, Equatable {
    package private(set) var entries: [String: String]

    package init(_ entries: [String: String] = [:]) {
        self.entries = entries
    }

    package subscript(key: String) -> String? { entries[key] }

    /// Reads a table from a file's bytes, detecting UTF-8 or UTF-16 by the byte-order mark.
    package init(bytes: [UInt8], source: String) throws(StringsParseError) {
        let text: String
        if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) {
            let littleEndian = bytes[0] == 0xFF
            guard bytes.count % 2 == 0 else { throw StringsParseError(source: source, line: 1, reason: "odd length for UTF-16") }
            var units: [UInt16] = []
            units.reserveCapacity(bytes.count / 2 - 1)
            var i = 2
            while i + 1 < bytes.count {
                units.append(littleEndian ? UInt16(bytes[i]) | UInt16(bytes[i + 1]) << 8 : UInt16(bytes[i]) << 8 | UInt16(bytes[i + 1]))
                i += 2
            }
            guard let decoded = String(validating: units, as: UTF16.self) else {
                throw StringsParseError(source: source, line: 1, reason: "is not valid UTF-16")
            }
            text = decoded
        } else {
            let body = ByteOrderMark.dropped(from: bytes)
            guard let decoded = String(validating: body, as: UTF8.self) else {
                throw StringsParseError(source: source, line: 1, reason: "is not valid UTF-8 (nor UTF-16 with a byte-order mark)")
            }
            text = decoded
        }
        try self.init(parsing: text, source: source)
    }

    package init(parsing text: String, source: String) throws(StringsParseError) {
        var reader = StringsReader(scalars: Array(text.unicodeScalars), source: source)
        entries = try reader.readEntries()
    }

    /// The entry for `key` with its placeholders filled from `arguments`: `%@` takes the next
    /// argument, `%1$@` the first, `%%` is a percent sign. Nil when the table lacks the key.
    package func format(_ key: String, arguments: [String]) -> String? {
        entries[key].map { LocalizedStrings.fill($0, arguments: arguments) }
    }

    /// Fills the `%@`, `%N$@` and `%%` placeholders of `format`; a missing argument is empty.
    /// Arguments are appended as strings: `UnicodeScalarView.append(contentsOf:)` copies the
    /// whole view each time, which made a format of many placeholders quadratic.
    package static func fill(_ format: String, arguments: [String]) -> String {
        let scalars = Array(format.unicodeScalars)
        var out = ""
        var next = 0
        var i = 0
        while i < scalars.count {
            let scalar = scalars[i]
            guard scalar == "%", i + 1 < scalars.count else {
                out.unicodeScalars.append(scalar)
                i += 1
                continue
            }
            if scalars[i + 1] == "%" {
                out.append("%")
                i += 2
            } else if scalars[i + 1] == "@" {
                if next < arguments.count { out += arguments[next] }
                next += 1
                i += 2
            } else {
                var j = i + 1
                var position = 0
                while j < scalars.count, ("0"..."9").contains(scalars[j]), position < 1_000_000 {
                    position = position * 10 + Int(scalars[j].value - 0x30)
                    j += 1
                }
                if j > i + 1, j + 1 < scalars.count, scalars[j] == "$", scalars[j + 1] == "@", position >= 1 {
                    if position <= arguments.count { out += arguments[position - 1] }
                    i = j + 2
                } else {
                    out.unicodeScalars.append(scalar)
                    i += 1
                }
            }
        }
        return out
    }
}

/// A `.strings` file that cannot be read, with the line where reading stopped.
package typealias StringsParseError = LineIssue

/// The tokenizer behind `LocalizedStrings(parsing:source:)`.
private struct StringsReader {
    let scalars: [Unicode.Scalar]
    let source: String
    var position = 0
    var line = 1

    init(scalars: [Unicode.Scalar], source: String) {
        self.scalars = scalars
        self.source = source
    }

    mutating func readEntries() throws(StringsParseError) -> [String: String] {
        var entries: [String: String] = [:]
        while true {
            try skipTrivia()
            guard position < scalars.count else { return entries }
            let key = try readToken(what: "a key")
            try skipTrivia()
            let value: String
            if position < scalars.count, scalars[position] == "=" {
                position += 1
                try skipTrivia()
                value = try readToken(what: "a value after '='")
                try skipTrivia()
            } else {
                value = key  // `"KEY";` is short for `"KEY" = "KEY";`
            }
            guard position < scalars.count, scalars[position] == ";" else {
                throw fail("expected ';' after the entry for \"\(key)\"")
            }
            position += 1
            entries[key] = value
        }
    }

    private func fail(_ reason: String) -> StringsParseError {
        StringsParseError(source: source, line: line, reason: reason)
    }

    private mutating func skipTrivia() throws(StringsParseError) {
        while position < scalars.count {
            let scalar = scalars[position]
            if scalar == "\n" {
                line += 1
                position += 1
            } else if scalar == " " || scalar == "\t" || scalar == "\r" || scalar == "\u{FEFF}" {
                position += 1
            } else if scalar == "/", position + 1 < scalars.count, scalars[position + 1] == "/" {
                while position < scalars.count, scalars[position] != "\n" { position += 1 }
            } else if scalar == "/", position + 1 < scalars.count, scalars[position + 1] == "*" {
                let startLine = line
                position += 2
                while true {
                    guard position + 1 < scalars.count else {
                        throw StringsParseError(source: source, line: startLine, reason: "unterminated /* comment")
                    }
                    if scalars[position] == "*" && scalars[position + 1] == "/" { position += 2; break }
                    if scalars[position] == "\n" { line += 1 }
                    position += 1
                }
            } else {
                return
            }
        }
    }

    /// A quoted string, or a bare word of letters, digits and `_.-$:/`.
    private mutating func readToken(what: String) throws(StringsParseError) -> String {
        guard position < scalars.count else { throw fail("expected \(what), found the end of the file") }
        if scalars[position] == "\"" { return try readQuoted() }
        var word = String.UnicodeScalarView()
        while position < scalars.count {
            let scalar = scalars[position]
            let isWordCharacter = scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "_.-$:/".unicodeScalars.contains(scalar)
            guard isWordCharacter else { break }
            word.append(scalar)
            position += 1
        }
        guard !word.isEmpty else { throw fail("expected \(what), found \(TerminalText.singleQuoted(String(scalars[position])))") }
        return String(word)
    }

    private mutating func readQuoted() throws(StringsParseError) -> String {
        let startLine = line
        position += 1
        var out = String.UnicodeScalarView()
        while true {
            guard position < scalars.count else {
                throw StringsParseError(source: source, line: startLine, reason: "unterminated string")
            }
            let scalar = scalars[position]
            position += 1
            switch scalar {
            case "\"":
                return String(out)
            case "\n":
                line += 1
                out.append(scalar)
            case "\\":
                guard position < scalars.count else { throw fail("unterminated escape") }
                let escape = scalars[position]
                position += 1
                switch escape {
                case "n": out.append("\n")
                case "t": out.append("\t")
                case "r": out.append("\r")
                case "\"", "\\", "'": out.append(escape)
                case "U", "u":
                    var value: UInt32 = 0
                    var digits = 0
                    while digits < 4, position < scalars.count, let digit = scalars[position].hexDigitValue {
                        value = value * 16 + UInt32(digit)
                        position += 1
                        digits += 1
                    }
                    guard digits == 4, let decoded = Unicode.Scalar(value) else { throw fail("invalid \\U escape") }
                    out.append(decoded)
                case "\n":
                    line += 1
                    out.append("\n")
                default:
                    out.append(escape)
                }
            default:
                out.append(scalar)
            }
        }
    }
}

extension Unicode.Scalar {
    fileprivate var hexDigitValue: Int? {
        switch value {
        case 0x30...0x39: return Int(value - 0x30)
        case 0x41...0x46: return Int(value - 0x41 + 10)
        case 0x61...0x66: return Int(value - 0x61 + 10)
        default: return nil
        }
    }
}
