import Glibc

/// Turns device-name bytes into Strings, reusing the previous String when a record names the
/// same device as the one before it (the usual case in a trace), so most fixes allocate none.
final class DeviceNames {
    private var lastName = Fix.defaultDevice

    /// The name, or nil when the bytes are not valid UTF-8. Empty text is the default device.
    func name(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        if bytes.isEmpty { return Fix.defaultDevice }
        let same = lastName.utf8.withContiguousStorageIfAvailable { last in
            last.count == bytes.count && memcmp(last.baseAddress!, bytes.baseAddress!, bytes.count) == 0
        }
        if same == true { return lastName }
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
        return name
    }
}
