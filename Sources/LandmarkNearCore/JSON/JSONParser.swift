import Foundation

/// A strict RFC 8259 JSON reader with a nesting limit, so hostile input (10,000 nested
/// arrays, invalid UTF-8, lone surrogates) gets an error instead of a stack overflow.
///
/// Foundation's `JSONSerialization` loses key order and blurs booleans and numbers on Linux;
/// payload parsing and validation need both, so the project reads JSON with this.
///
///     let value = try JSONParser.parse(#"[1, "two", {"three": 3}]"#)
package struct JSONParser {
    /// The deepest nesting of arrays and objects accepted.
    static let defaultMaximumDepth = 512

    private let bytes: UnsafeBufferPointer<UInt8>
    private var position = 0
    private let maximumDepth: Int

    private init(bytes: UnsafeBufferPointer<UInt8>, maximumDepth: Int) {
        self.bytes = bytes
        self.maximumDepth = maximumDepth
    }

    /// Parses one JSON document; whitespace may surround it, nothing else may follow it.
    package static func parse(_ data: some Collection<UInt8>, maximumDepth: Int = defaultMaximumDepth) throws(JSONParseError) -> JSONValue {
        try Array(data).withUnsafeBufferPointer { buffer throws(JSONParseError) in
            var parser = JSONParser(bytes: buffer, maximumDepth: maximumDepth)
            return try parser.parseDocument()
        }
    }

    static func parse(_ text: String, maximumDepth: Int = defaultMaximumDepth) throws(JSONParseError) -> JSONValue {
        try parse(Array(text.utf8), maximumDepth: maximumDepth)
    }

    /// Parses the JSON value that starts at `offset` or after it (past white space and the RS
    /// separators of RFC 7464 JSON text sequences), for inputs that hold several documents one
    /// after another; the value and the offset just past it, or nil when only white space is
    /// left. Error offsets count from the start of `bytes`.
    package static func parseValue(
        in bytes: UnsafeBufferPointer<UInt8>, from offset: Int,
        maximumDepth: Int = defaultMaximumDepth
    ) throws(JSONParseError) -> (value: JSONValue, end: Int)? {
        var parser = JSONParser(bytes: bytes, maximumDepth: maximumDepth)
        parser.position = offset
        while parser.position < bytes.count, [0x20, 0x09, 0x0A, 0x0D, 0x1E].contains(bytes[parser.position]) {
            parser.position += 1
        }
        if parser.position == bytes.count { return nil }
        let value = try parser.parseValue(depth: 0)
        return (value, parser.position)
    }

    private mutating func parseDocument() throws(JSONParseError) -> JSONValue {
        skipWhitespace()
        if position == bytes.count { throw JSONParseError("empty document", at: position) }
        let value = try parseValue(depth: 0)
        skipWhitespace()
        if position != bytes.count {
            throw JSONParseError("unexpected text after the JSON value", at: position)
        }
        return value
    }

    private mutating func skipWhitespace() {
        while position < bytes.count, ASCIIBlanks.whitespace.contains(bytes[position]) { position += 1 }
    }

    private mutating func parseValue(depth: Int) throws(JSONParseError) -> JSONValue {
        guard position < bytes.count else { throw JSONParseError("unexpected end of input", at: position) }
        switch bytes[position] {
        case UInt8(ascii: "{"): return try parseObject(depth: depth + 1)
        case UInt8(ascii: "["): return try parseArray(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default:
            throw JSONParseError("unexpected character \(describe(bytes[position]))", at: position)
        }
    }

    private func describe(_ byte: UInt8) -> String {
        if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x" + String(byte, radix: 16, uppercase: true)
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(JSONParseError) {
        let count = literal.utf8CodeUnitCount
        let start = position
        guard position + count <= bytes.count else { throw JSONParseError("unexpected end of input", at: position) }
        for i in 0..<count where bytes[position + i] != literal.utf8Start[i] {
            throw JSONParseError("invalid literal", at: start)
        }
        position += count
    }

    private mutating func parseObject(depth: Int) throws(JSONParseError) -> JSONValue {
        if depth > maximumDepth { throw JSONParseError("nesting deeper than \(maximumDepth) levels", at: position) }
        position += 1
        var members: [(key: String, value: JSONValue)] = []
        skipWhitespace()
        if position < bytes.count && bytes[position] == UInt8(ascii: "}") {
            position += 1
            return .object(JSONObject(members))
        }
        while true {
            skipWhitespace()
            guard position < bytes.count else { throw JSONParseError("unexpected end of input in an object", at: position) }
            guard bytes[position] == UInt8(ascii: "\"") else { throw JSONParseError("expected a string key", at: position) }
            let key = try parseString()
            skipWhitespace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else {
                throw JSONParseError("expected ':' after key \"\(key)\"", at: position)
            }
            position += 1
            skipWhitespace()
            let value = try parseValue(depth: depth)
            members.append((key, value))
            skipWhitespace()
            guard position < bytes.count else { throw JSONParseError("unexpected end of input in an object", at: position) }
            if bytes[position] == UInt8(ascii: ",") { position += 1; continue }
            if bytes[position] == UInt8(ascii: "}") { position += 1; return .object(JSONObject(members)) }
            throw JSONParseError("expected ',' or '}' in an object", at: position)
        }
    }

    private mutating func parseArray(depth: Int) throws(JSONParseError) -> JSONValue {
        if depth > maximumDepth { throw JSONParseError("nesting deeper than \(maximumDepth) levels", at: position) }
        position += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if position < bytes.count && bytes[position] == UInt8(ascii: "]") {
            position += 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            elements.append(try parseValue(depth: depth))
            skipWhitespace()
            guard position < bytes.count else { throw JSONParseError("unexpected end of input in an array", at: position) }
            if bytes[position] == UInt8(ascii: ",") { position += 1; continue }
            if bytes[position] == UInt8(ascii: "]") { position += 1; return .array(elements) }
            throw JSONParseError("expected ',' or ']' in an array", at: position)
        }
    }

    private mutating func parseNumber() throws(JSONParseError) -> Double {
        let start = position
        guard let end = JSONNumberGrammar.end(ofNumberIn: bytes, from: start) else {
            let reason = JSONNumberGrammar.hasLeadingZero(bytes, from: start) ? "leading zero in a number" : "invalid number"
            throw JSONParseError(reason, at: start)
        }
        position = end
        // Swift's own conversion: correctly rounded at any length (DecimalNumber stops at 512 bytes).
        guard let value = Double(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)) else {
            throw JSONParseError("invalid number", at: start)
        }
        return value
    }

    private mutating func parseString() throws(JSONParseError) -> String {
        let start = position
        position += 1
        var utf8: [UInt8] = []
        while true {
            guard position < bytes.count else { throw JSONParseError("unterminated string", at: start) }
            let byte = bytes[position]
            switch byte {
            case UInt8(ascii: "\""):
                position += 1
                guard let string = String(validating: utf8, as: UTF8.self) else {
                    throw JSONParseError("invalid UTF-8 in a string", at: start)
                }
                return string
            case UInt8(ascii: "\\"):
                position += 1
                guard position < bytes.count else { throw JSONParseError("unterminated string", at: start) }
                let escape = bytes[position]
                position += 1
                if let simple = JSONEscape.simple(escape) {
                    utf8.append(simple)
                } else if escape == UInt8(ascii: "u") {
                    var scalar = try parseHex4()
                    if JSONEscape.isHighSurrogate(scalar) {
                        guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u")
                        else {
                            throw JSONParseError("lone surrogate \\u\(String(scalar, radix: 16)) in a string", at: position)
                        }
                        position += 2
                        let low = try parseHex4()
                        guard JSONEscape.isLowSurrogate(low) else {
                            throw JSONParseError("invalid surrogate pair in a string", at: position)
                        }
                        scalar = JSONEscape.scalar(high: scalar, low: low)
                    } else if JSONEscape.isLowSurrogate(scalar) {
                        throw JSONParseError("lone surrogate \\u\(String(scalar, radix: 16)) in a string", at: position)
                    }
                    JSONEscape.appendUTF8(of: scalar, to: &utf8)
                } else {
                    throw JSONParseError("invalid escape '\\\(Character(Unicode.Scalar(escape)))' in a string", at: position - 1)
                }
            case 0x00..<0x20:
                throw JSONParseError("control character in a string", at: position)
            default:
                utf8.append(byte)
                position += 1
            }
        }
    }

    private mutating func parseHex4() throws(JSONParseError) -> UInt32 {
        guard position + 4 <= bytes.count else { throw JSONParseError("truncated \\u escape", at: position) }
        guard let value = JSONEscape.hexQuad(in: bytes, at: position) else {
            // Point at the first byte that is not a hex digit.
            let bad = (position..<position + 4).first { JSONEscape.hexDigit(bytes[$0]) == nil } ?? position
            throw JSONParseError("invalid \\u escape", at: bad)
        }
        position += 4
        return value
    }
}
