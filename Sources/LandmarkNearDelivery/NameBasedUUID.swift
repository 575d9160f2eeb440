/// RFC 9562 version 5 (name-based, SHA-1) UUIDs: the same name in the same namespace always
/// gives the same UUID, so a notification sent again after a restart carries the same `apns-id`.
///
///     NameBasedUUID.make(namespace: NameBasedUUID.dnsNamespace, name: "python.org")
///     // "886313e1-3b8a-5372-9b90-0c9aee199e5d"
enum NameBasedUUID {
    /// RFC 9562's namespace for DNS names (used by the tests' known answer).
    static let dnsNamespace: [UInt8] = [
        0x6b, 0xa7, 0xb8, 0x10, 0x9d, 0xad, 0x11, 0xd1,
        0x80, 0xb4, 0x00, 0xc0, 0x4f, 0xd4, 0x30, 0xc8,
    ]
    /// LandmarkNear's own namespace for delivery ids (a random v4 UUID, fixed once:
    /// 3c1f5e2a-7b84-4d0e-9a61-5f2d8c0b7e43).
    static let deliveryNamespace: [UInt8] = [
        0x3c, 0x1f, 0x5e, 0x2a, 0x7b, 0x84, 0x4d, 0x0e,
        0x9a, 0x61, 0x5f, 0x2d, 0x8c, 0x0b, 0x7e, 0x43,
    ]

    static func make(namespace: [UInt8], name: [UInt8]) -> String {
        var hash = Array(OpenSSLDigest.sha1(namespace + name).prefix(16))
        hash[6] = (hash[6] & 0x0F) | 0x50
        hash[8] = (hash[8] & 0x3F) | 0x80
        let hex = Array(OpenSSLDigest.hex(hash))
        return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(hex[$0]) }.joined(separator: "-")
    }

    static func make(namespace: [UInt8], name: String) -> String {
        make(namespace: namespace, name: Array(name.utf8))
    }
}
