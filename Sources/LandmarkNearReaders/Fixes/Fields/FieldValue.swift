@_spi(Inlining) import LandmarkNearCore

/// A raw value of a fix field as an input wrote it, before it is interpreted: JSON gives
/// numbers, strings, booleans, null; CSV gives text. Text is a view into the reader's buffer.
enum FieldValue {
    case absent
    case null
    case bool(Bool)
    case number(Double)
    /// UTF-8 text (a JSON string without escapes left, or a CSV cell).
    case text(UnsafeBufferPointer<UInt8>)
    /// An array (`true`) or object (`false`), which no fix field can be.
    case composite(isArray: Bool)

    var isMissing: Bool {
        switch self {
        case .absent, .null: return true
        case .text(let bytes): return bytes.isEmpty
        default: return false
        }
    }

    /// "a boolean", "an object", ... for messages.
    var typeDescription: String {
        switch self {
        case .absent, .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .text: return "a string"
        case .composite(let isArray): return isArray ? "an array" : "an object"
        }
    }

    /// The value quoted for a message, shortened when long.
    var quoted: String {
        switch self {
        case .text(let bytes):
            let shown = String(decoding: UnsafeBufferPointer(rebasing: bytes.prefix(40)), as: UTF8.self)
            return "\"" + shown + (bytes.count > 40 ? "…" : "") + "\""
        case .number(let value): return JSONWriter.number(value)
        default: return typeDescription
        }
    }
}
