/// Writes compact JSON text byte for byte as the payload format asks (docs/reference/payloads.md): no spaces, raw UTF-8, `/` not
/// escaped, control characters as `\n`, `\t`, ... or `\u00XX`. Objects keep the order given.
///
///     var out = ""
///     JSONWriter.appendString("a \"b\"/c", to: &out)   // "a \"b\"/c"
package enum JSONWriter {
    /// Appends `string` as a JSON string literal (with quotes).
    package static func appendString(_ string: String, to output: inout String) {
        output.append("\"")
        var pendingStart = string.unicodeScalars.startIndex
        let scalars = string.unicodeScalars
        var index = scalars.startIndex
        while index != scalars.endIndex {
            let scalar = scalars[index]
            let escape: String?
            switch scalar.value {
            case 0x22: escape = "\\\""
            case 0x5C: escape = "\\\\"
            case 0x0A: escape = "\\n"
            case 0x0D: escape = "\\r"
            case 0x09: escape = "\\t"
            case 0x08: escape = "\\b"
            case 0x0C: escape = "\\f"
            case 0x00..<0x20, 0x7F:
                let hex = String(scalar.value, radix: 16, uppercase: false)
                escape = "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: escape = nil
            }
            if let escape {
                output.unicodeScalars.append(contentsOf: scalars[pendingStart..<index])
                output.append(escape)
                pendingStart = scalars.index(after: index)
            }
            index = scalars.index(after: index)
        }
        output.unicodeScalars.append(contentsOf: scalars[pendingStart..<scalars.endIndex])
        output.append("\"")
    }

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
