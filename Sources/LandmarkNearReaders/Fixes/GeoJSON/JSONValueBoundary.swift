/// Finds where a JSON value ends while its bytes are still arriving, so that a GeoJSON
/// document on a live pipe is read as soon as its last byte came, not at the end of input: an
/// object or array ends at its closing bracket, a string at its closing quote, a number or
/// literal at the first byte that cannot continue it. Only the structure is looked at
/// (brackets outside strings, quotes and backslash escapes); the parser checks the rest.
///
/// Incremental: each call looks only at the bytes that came since the last one.
///
///     var boundary = JSONValueBoundary()
///     boundary.end(in: Array(#"{"type":"Fea"#.utf8))                 // nil: not complete yet
///     boundary.end(in: Array(#"{"type":"Feature"} {"#.utf8))         // 18
struct JSONValueBoundary {
    private enum Mode { case notStarted, container, string, scalar }
    private var mode = Mode.notStarted
    private var depth = 0
    private var inString = false
    private var escaped = false
    /// Bytes of the value looked at so far.
    private var scanned = 0

    /// `bytes` is the value from its first byte (no white space before it), with at least the
    /// bytes of the previous call. Returns the count of bytes the value takes once it is
    /// complete within them, else nil (a number or literal at the very end may still go on).
    mutating func end(in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var index = scanned
        defer { scanned = index }
        if mode == .notStarted {
            guard index < bytes.count else { return nil }
            switch bytes[index] {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                mode = .container
                depth = 1
            case UInt8(ascii: "\""):
                mode = .string
                inString = true
            default:
                mode = .scalar
            }
            index += 1
        }
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                    if mode == .string { return index }
                }
                continue
            }
            switch mode {
            case .container:
                switch byte {
                case UInt8(ascii: "\""): inString = true
                case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                    if depth == 0 { return index }
                default: break
                }
            case .scalar:
                if Self.endsScalar(byte) {
                    index -= 1
                    return index
                }
            case .string, .notStarted:
                break
            }
        }
        return nil
    }

    mutating func end(in bytes: [UInt8]) -> Int? {
        bytes.withUnsafeBufferPointer { end(in: $0) }
    }

    /// Starts over for the next value.
    mutating func reset() { self = JSONValueBoundary() }

    /// White space, RFC 7464's record separator, or a structural character.
    private static func endsScalar(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x20, 0x09, 0x0A, 0x0D, 0x1E,
            UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: "["), UInt8(ascii: "]"),
            UInt8(ascii: ","), UInt8(ascii: ":"), UInt8(ascii: "\""):
            return true
        default:
            return false
        }
    }
}
