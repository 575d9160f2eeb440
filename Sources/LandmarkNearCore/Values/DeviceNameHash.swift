/// The hash of a device name's UTF-8 bytes that the reader's name cache and the engine's
/// device table share, so that a fix read from text is hashed once (by the reader) rather
/// than once by each.
///
/// Swift's `Hasher` (SipHash-1-3, seeded per process): device names come from untrusted
/// clients, and a fixed hash would let one choose names that collide. The top bit is always
/// set, so 0 can mean "no hash" (`Fix.deviceHash`) and "empty bucket" (`DeviceTable`).
///
///     DeviceNameHash.of("car") == DeviceNameHash.of("car")   // true, within one process
@_spi(Inlining) public enum DeviceNameHash {
    @inlinable @inline(__always)
    @_spi(Inlining) public static func of(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var hasher = Hasher()
        hasher.combine(bytes: UnsafeRawBufferPointer(bytes))
        return UInt64(truncatingIfNeeded: hasher.finalize()) | (1 << 63)
    }

    @inlinable @inline(__always)
    @_spi(Inlining) public static func of(_ name: String) -> UInt64 {
        var name = name
        return name.withUTF8 { of($0) }
    }
}
