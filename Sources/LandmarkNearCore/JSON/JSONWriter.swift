/// Writes compact JSON text byte for byte as the payload format asks (docs/reference/payloads.md): no spaces, raw UTF-8, `/` not
/// escaped, control characters as `\n`, `\t`, ... or `\u00XX`. Objects keep the order given.
///
///     var out = ""
///     JSONWriter.appendString("a \"b\"/c", to: &out)   // "a \"b\"/c"
package enum JSONWriter {
    /// Appends `string` as a JSON string literal (with quotes).
    ///
    /// Linear in the bytes of `string`, whatever it holds: every byte to escape is ASCII, so the
    /// escaped text is written byte by byte into a string sized once (a first pass counts it).
    /// Appending each escape through `output.unicodeScalars.append(contentsOf:)`, as this once
    /// did, copies the whole output every time: a 1 MiB line of backslashes took 7-18 s.
    package static func appendString(_ string: String, to output: inout String) {
        var string = string
        let escaped = string.withUTF8 { bytes -> String? in
            var size = 0
            for byte in bytes { size += escapedSize(of: byte) }
            guard size != bytes.count else { return nil }
            return String(unsafeUninitializedCapacity: size + 2) { buffer in
                var count = 0
                buffer[count] = UInt8(ascii: "\"")
                count += 1
                for byte in bytes { count = writeEscaped(byte, into: buffer, at: count) }
                buffer[count] = UInt8(ascii: "\"")
                return count + 1
            }
        }
        if let escaped {
            output.append(escaped)
        } else {
            output.append("\"")
            output.append(string)
            output.append("\"")
        }
    }

    /// Bytes that `byte` takes inside a JSON string literal: 2 for `\"`, `\\`, `\n`, `\r`, `\t`,
    /// `\b`, `\f`, 6 for the other control characters and DEL (`\u00XX`), else 1.
    @inline(__always)
    static func escapedSize(of byte: UInt8) -> Int {
        switch byte {
        case 0x22, 0x5C, 0x0A, 0x0D, 0x09, 0x08, 0x0C: return 2
        case 0x00..<0x20, 0x7F: return 6
        default: return 1
        }
    }

    /// Writes `byte` escaped at `offset` (room counted by `escapedSize(of:)`); returns the offset after it.
    @inline(__always)
    private static func writeEscaped(_ byte: UInt8, into buffer: UnsafeMutableBufferPointer<UInt8>, at offset: Int) -> Int {
        let short: UInt8
        switch byte {
        case 0x22, 0x5C: short = byte
        case 0x0A: short = UInt8(ascii: "n")
        case 0x0D: short = UInt8(ascii: "r")
        case 0x09: short = UInt8(ascii: "t")
        case 0x08: short = UInt8(ascii: "b")
        case 0x0C: short = UInt8(ascii: "f")
        case 0x00..<0x20, 0x7F:
            buffer[offset] = UInt8(ascii: "\\")
            buffer[offset + 1] = UInt8(ascii: "u")
            buffer[offset + 2] = UInt8(ascii: "0")
            buffer[offset + 3] = UInt8(ascii: "0")
            buffer[offset + 4] = hexDigit(byte >> 4)
            buffer[offset + 5] = hexDigit(byte & 0x0F)
            return offset + 6
        default:
            buffer[offset] = byte
            return offset + 1
        }
        buffer[offset] = UInt8(ascii: "\\")
        buffer[offset + 1] = short
        return offset + 2
    }

    /// The lowercase hex digit of `nibble` (0...15).
    @inline(__always)
    private static func hexDigit(_ nibble: UInt8) -> UInt8 { nibble < 10 ? 0x30 + nibble : 0x57 + nibble }

    /// `string` as a JSON string literal (with quotes).
    package static func quoted(_ string: String) -> String {
        var out = ""
        appendString(string, to: &out)
        return out
    }

    /// A finite number in its shortest round-trip form; integral values without ".0".
    /// Non-finite numbers, which JSON cannot hold, are written as null.
    package static func number(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        if value == value.rounded(), abs(value) < 1e15 {
            return String(Int64(value))
        }
        // `description` is what interpolation writes, without going through a
        // TextOutputStream (measured: a tenth of writing an event line; see Benchmarks/LOG.md).
        return value.description
    }

    /// Serializes any `JSONValue` compactly, keeping object member order.
    package static func serialize(_ value: JSONValue) -> String {
        var out = ""
        append(value, to: &out)
        return out
    }

    package static func append(_ value: JSONValue, to out: inout String) {
        switch value {
        case .null: out.append("null")
        case .bool(let b): out.append(b ? "true" : "false")
        case .number(let d): out.append(number(d))
        case .string(let s): appendString(s, to: &out)
        case .array(let elements):
            out.append("[")
            for (i, element) in elements.enumerated() {
                if i > 0 { out.append(",") }
                append(element, to: &out)
            }
            out.append("]")
        case .object(let object):
            out.append("{")
            for (i, member) in object.members.enumerated() {
                if i > 0 { out.append(",") }
                appendString(member.key, to: &out)
                out.append(":")
                append(member.value, to: &out)
            }
            out.append("}")
        }
    }
}
