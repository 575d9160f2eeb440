/// JSON's number grammar (RFC 8259 §6), once for the JSON parser, the NDJSON fast path and
/// the echo of query numbers: `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`.
///
///     JSONNumberGrammar.matches("-0.5e3")   // true
///     JSONNumberGrammar.matches("01")       // false: a leading zero
@_spi(Inlining) public enum JSONNumberGrammar {
    /// The index just after the number that starts at `start`, or nil when the bytes there do
    /// not start with a number. It stops at the first byte that cannot continue the number;
    /// whether that byte may follow a number is the caller's question.
    @inlinable @inline(__always)
    @_spi(Inlining) public static func end(ofNumberIn bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        let count = bytes.count
        var i = start
        if i < count, bytes[i] == UInt8(ascii: "-") { i += 1 }
        guard i < count, bytes[i] &- 0x30 < 10 else { return nil }
        if bytes[i] == UInt8(ascii: "0") {
            i += 1
            if i < count, bytes[i] &- 0x30 < 10 { return nil }
        } else {
            while i < count, bytes[i] &- 0x30 < 10 { i += 1 }
        }
        if i < count, bytes[i] == UInt8(ascii: ".") {
            i += 1
            guard i < count, bytes[i] &- 0x30 < 10 else { return nil }
            while i < count, bytes[i] &- 0x30 < 10 { i += 1 }
        }
        if i < count, bytes[i] | 0x20 == UInt8(ascii: "e") {
            i += 1
            if i < count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
            guard i < count, bytes[i] &- 0x30 < 10 else { return nil }
            while i < count, bytes[i] &- 0x30 < 10 { i += 1 }
        }
        return i
    }

    /// Whether the number at `start` fails the grammar only by a leading zero (`01`), for a
    /// precise message.
    static func hasLeadingZero(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Bool {
        let digit = start < bytes.count && bytes[start] == UInt8(ascii: "-") ? start + 1 : start
        return digit + 1 < bytes.count && bytes[digit] == UInt8(ascii: "0") && bytes[digit + 1] &- 0x30 < 10
    }

    /// Whether all of `text` is one JSON number.
    package static func matches(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { end(ofNumberIn: $0, from: 0) == $0.count }
    }
}
