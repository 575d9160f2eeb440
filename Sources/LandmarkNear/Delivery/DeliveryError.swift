/// Why deliveries cannot start: a key that cannot be read or is not an EC P-256 PKCS#8 key,
/// a CA file that holds no certificate, a libcurl without HTTP/2, a bad option value.
///
///     throw DeliveryError(.badData, "--apns-key key.p8: not a PKCS#8 EC P-256 private key")
package struct DeliveryError: Error, Sendable, CustomStringConvertible {
    package enum Kind: Sendable {
        /// A bad option value (64).
        case usage
        /// A key or CA file with the wrong content (65).
        case badData
        /// A key or CA file that does not exist (66).
        case missingInput
        /// A file that cannot be read, a libcurl or OpenSSL failure (74).
        case io
    }

    package var kind: Kind
    package var description: String

    package init(_ kind: Kind, _ description: String) {
        self.kind = kind
        self.description = description
    }
}
