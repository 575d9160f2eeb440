/// The 64-bit FNV-1a hash: tiny, and the same on every run and machine (unlike `Hasher`).
///
///     FNV1a.hex("a/b")   // 16 lower-case hex digits
enum FNV1a {
    static func hash64(_ bytes: some Sequence<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        return hash
    }

    /// The hash of `text`'s UTF-8 bytes as 16 lower-case hex digits.
    static func hex(_ text: String) -> String {
        let digits = String(hash64(text.utf8), radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
