/// APNs device tokens as `--profiles` gives them (`"apnsTokens": ["<hex>", ...]`): hex digits,
/// an even number of them, kept in lower case. A token is a secret of its device: output shows
/// only its last 8 digits.
///
///     try DeviceToken.normalized("A1B2C3D4E5F60718")   // "a1b2c3d4e5f60718"
///     DeviceToken.tail("a1b2c3d4e5f60718")              // "e5f60718"
package enum DeviceToken {
    /// Apple's tokens are 32 bytes today; allow up to 100 bytes for the future.
    static let maximumHexDigits = 200

    /// The token in lower case, or nil when it is not an even number (2 to 200) of hex digits.
    package static func normalized(_ text: String) -> String? {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty, bytes.count % 2 == 0, bytes.count <= maximumHexDigits,
            bytes.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x66) })
        else { return nil }
        return String(decoding: bytes.map { $0 >= 0x41 && $0 <= 0x46 ? $0 | 0x20 : $0 }, as: UTF8.self)
    }

    /// The last 8 hex digits, the only part of a token that may be printed.
    package static func tail(_ token: String) -> String {
        String(token.suffix(8))
    }
}
