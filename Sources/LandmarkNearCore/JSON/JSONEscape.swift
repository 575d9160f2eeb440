/// The decoding of JSON's string escapes (RFC 8259 section 7), shared by the full parser
/// (`JSONParser`, which reports where an escape is wrong) and the catalog's fast scanner
/// (`TutorialCatalogScanner`, which only needs to know that it is).
package enum JSONEscape {
    /// The byte a one-character escape stands for (`n` for `\n`, ...); nil for `u` and for a
    /// character that is no escape.
    @inline(__always)
    package static func simple(_ escape: UInt8) -> UInt8? {
        switch escape {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): return escape
        case UInt8(ascii: "b"): return 0x08
        case UInt8(ascii: "f"): return 0x0C
        case UInt8(ascii: "n"): return 0x0A
        case UInt8(ascii: "r"): return 0x0D
        case UInt8(ascii: "t"): return 0x09
        default: return nil
        }
    }

    /// The value of the four hex digits at `offset` (the `XXXX` of `\uXXXX`); nil when there
    /// are fewer than four bytes left or one is not a hex digit.
    package static func hexQuad(in bytes: UnsafeBufferPointer<UInt8>, at offset: Int) -> UInt32? {
        guard offset >= 0, offset + 4 <= bytes.count else { return nil }
        var value: UInt32 = 0
        for byte in bytes[offset..<offset + 4] {
            guard let digit = hexDigit(byte) else { return nil }
            value = value * 16 + digit
        }
        return value
    }

    /// The value of one hex digit, either case.
    @inline(__always)
    static func hexDigit(_ byte: UInt8) -> UInt32? {
        switch byte {
        case 0x30...0x39: return UInt32(byte - 0x30)
        case 0x41...0x46: return UInt32(byte - 0x41 + 10)
        case 0x61...0x66: return UInt32(byte - 0x61 + 10)
        default: return nil
        }
    }

    package static func isHighSurrogate(_ unit: UInt32) -> Bool { (0xD800...0xDBFF).contains(unit) }
    package static func isLowSurrogate(_ unit: UInt32) -> Bool { (0xDC00...0xDFFF).contains(unit) }

    /// The scalar that a high and a low surrogate stand for together.
    package static func scalar(high: UInt32, low: UInt32) -> UInt32 { 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00) }

    /// Appends the UTF-8 encoding of `value`, a scalar value that is no surrogate.
    package static func appendUTF8(of value: UInt32, to utf8: inout [UInt8]) {
        guard let scalar = Unicode.Scalar(value) else { return }
        utf8.append(contentsOf: UTF8.encode(scalar)!)
    }
}
