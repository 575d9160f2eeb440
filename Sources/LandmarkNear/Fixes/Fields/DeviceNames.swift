import Glibc

/// Turns device-name bytes into Strings, reusing the previous String when a record names the
/// same device as the one before it (the usual case in a trace), so most fixes allocate none.
final class DeviceNames {
    private var lastBytes: [UInt8] = []
    private var lastName = Fix.defaultDevice

    /// The name, or nil when the bytes are not valid UTF-8. Empty text is the default device.
    func name(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        if bytes.isEmpty { return Fix.defaultDevice }
        if bytes.count == lastBytes.count,
           lastBytes.withUnsafeBufferPointer({ memcmp($0.baseAddress!, bytes.baseAddress!, bytes.count) == 0 }) {
            return lastName
        }
        guard let name = String(validating: bytes, as: UTF8.self) else { return nil }
        lastBytes = Array(bytes)
        lastName = name
        return name
    }
}
