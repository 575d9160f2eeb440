import Glibc
@_spi(Inlining) import LandmarkNearCore

/// Turns device-name bytes into Strings with their `DeviceNameHash`, so that the engine need
/// not hash the name again; the previous name is reused when a record names the same device
/// as the one before it (the usual case in a trace), so most such fixes allocate none.
///
///     let names = DeviceNames()
///     names.name(bytes)   // ("dev0042", its hash)
///
/// Names are compared byte for byte, never by Unicode equivalence (docs/reference/fixes.md).
package final class DeviceNames {
    private var lastName = Fix.defaultDevice
    private var lastHash: UInt64 = 0

    package init() {}

    /// The name and its hash, or nil when the bytes are not valid UTF-8. Empty text is the
    /// default device (hash 0: the engine hashes it).
    func name(_ bytes: UnsafeBufferPointer<UInt8>) -> (name: String, hash: UInt64)? {
        if bytes.isEmpty { return (Fix.defaultDevice, 0) }
        let same = lastName.utf8.withContiguousStorageIfAvailable { last in
            last.count == bytes.count && memcmp(last.baseAddress!, bytes.baseAddress!, bytes.count) == 0
        }
        if same == true, lastHash != 0 { return (lastName, lastHash) }
        // Names of up to 15 bytes are stored inline in the String: no allocation. ASCII needs
        // no validation (and String(validating:) is generic, slow on this hot path).
        let name: String
        if bytes.allSatisfy({ $0 < 0x80 }) {
            name = String(decoding: bytes, as: UTF8.self)
        } else {
            guard let valid = String(validating: bytes, as: UTF8.self) else { return nil }
            name = valid
        }
        lastName = name
        lastHash = DeviceNameHash.of(bytes)
        return (name, lastHash)
    }
}
