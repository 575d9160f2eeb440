@_spi(Inlining) import LandmarkNearCore

/// Strings with escapes: the slow path of the scanner, taken only by a string that holds a
/// backslash (the fast path hands out byte ranges).
extension CatalogByteScanner {
    /// A string with escapes, decoded as the parser decodes it; nil for a lone or invalid
    /// surrogate, a bad escape, a control character or invalid UTF-8 (the parser's errors).
    mutating func escapedString() -> String? {
        guard take(UInt8(ascii: "\"")) else { return nil }
        var utf8: [UInt8] = []
        while i < bytes.count {
            let byte = bytes[i]
            i += 1
            switch byte {
            case UInt8(ascii: "\""):
                return String(validating: utf8, as: UTF8.self)
            case UInt8(ascii: "\\"):
                guard i < bytes.count else { return nil }
                let escape = bytes[i]
                i += 1
                if let simple = JSONEscape.simple(escape) {
                    utf8.append(simple)
                } else if escape == UInt8(ascii: "u") {
                    guard var scalar = hex4() else { return nil }
                    if JSONEscape.isHighSurrogate(scalar) {
                        guard take(UInt8(ascii: "\\")), take(UInt8(ascii: "u")), let low = hex4(), JSONEscape.isLowSurrogate(low) else {
                            return nil
                        }
                        scalar = JSONEscape.scalar(high: scalar, low: low)
                    } else if JSONEscape.isLowSurrogate(scalar) {
                        return nil
                    }
                    JSONEscape.appendUTF8(of: scalar, to: &utf8)
                } else {
                    return nil
                }
            case 0x00..<0x20:
                return nil
            default:
                utf8.append(byte)
            }
        }
        return nil
    }

    private mutating func hex4() -> UInt32? {
        guard let value = JSONEscape.hexQuad(in: bytes, at: i) else { return nil }
        i += 4
        return value
    }
}
