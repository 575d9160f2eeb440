/// Eight bytes of a JSON string's contents looked at in one go: which of them end a plain
/// string (a quote) or leave it to a slower path (a backslash, a control character, non-ASCII).
/// The scanners of catalogs and of NDJSON fixes skip the plain stretches of their strings with
/// it, eight bytes a step where a byte-by-byte loop took one.
@_spi(Inlining) public enum JSONStringWord {
    /// The high bit of each of the eight bytes at `offset` (at least 8 before the end;
    /// little-endian: the first byte's is bit 7) that is a quote, a backslash, a control
    /// character or non-ASCII, SWAR: byte b is flagged when b − 0x20, (b ^ '"') − 1 or
    /// (b ^ '\\') − 1 wraps below zero, or b >= 0x80. A borrow from a flagged byte may flag the
    /// bytes above it too, never one below: the lowest flagged byte is always one of those four
    /// kinds, and 0 means none is.
    @inlinable @inline(__always)
    public static func flagged(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int) -> UInt64 {
        let word = UnsafeRawPointer(bytes.baseAddress.unsafelyUnwrapped + offset).loadUnaligned(as: UInt64.self)
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let quote = word ^ (ones &* 0x22)
        let backslash = word ^ (ones &* 0x5C)
        return ((word &- ones &* 0x20) | (quote &- ones) | (backslash &- ones) | word) & highs
    }
}
