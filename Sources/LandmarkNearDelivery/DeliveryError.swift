@_spi(Inlining) import LandmarkNearCore

/// Why deliveries cannot start or a delivery log cannot be written: a key that is not an EC
/// P-256 PKCS#8 key, a CA file that holds no certificate, a libcurl without HTTP/2.
///
///     throw DeliveryError(.badData, "key.p8: not an EC P-256 key")
package struct DeliveryError: LandmarkNearError, Sendable {
    package var kind: ErrorKind
    package var description: String

    package init(_ kind: ErrorKind, _ description: String) {
        self.kind = kind
        self.description = description
    }
}
