import COpenSSL

/// The `.p8` key APNs token auth signs with: a PKCS#8 EC P-256 private key, held by OpenSSL.
/// One owner for the `EVP_PKEY`; signatures are ES256 (ECDSA P-256 + SHA-256) in JOSE form
/// (RFC 7518 §3.4: r and s, 32 bytes each, not DER).
///
///     let key = try APNsSigningKey(pem: Array(pemText.utf8), source: "AuthKey_ABC123DEFG.p8")
///     let signature = try key.sign(Array("header.claims".utf8))   // 64 bytes
final class APNsSigningKey {
    private let key: OpaquePointer

    init(pem: [UInt8], source: String) throws(DeliveryError) {
        let loaded: OpaquePointer? = pem.withUnsafeBytes { bytes in
            guard let bio = BIO_new_mem_buf(bytes.baseAddress, Int32(bytes.count)) else { return nil }
            defer { BIO_free(bio) }
            return PEM_read_bio_PrivateKey(bio, nil, nil, nil)
        }
        ERR_clear_error()
        guard let loaded else {
            throw DeliveryError(.badData, "\(source): not a PEM private key (an APNs .p8 key begins with -----BEGIN PRIVATE KEY-----)")
        }
        var groupName = [CChar](repeating: 0, count: 64)
        var groupLength = 0
        guard EVP_PKEY_get_base_id(loaded) == EVP_PKEY_EC,
            EVP_PKEY_get_group_name(loaded, &groupName, groupName.count, &groupLength) == 1,
            String(decoding: groupName.prefix(groupLength).map { UInt8(bitPattern: $0) }, as: UTF8.self) == "prime256v1"
        else {
            EVP_PKEY_free(loaded)
            ERR_clear_error()
            throw DeliveryError(.badData, "\(source): not an EC P-256 key (APNs token auth needs the .p8 key Apple issues)")
        }
        key = loaded
    }

    deinit { EVP_PKEY_free(key) }

    /// ES256 over `message`: 64 bytes, r then s, each big-endian and left-padded to 32 bytes.
    func sign(_ message: [UInt8]) throws(DeliveryError) -> [UInt8] {
        guard let context = EVP_MD_CTX_new() else { throw DeliveryError(.io, "OpenSSL: cannot allocate a digest context") }
        defer { EVP_MD_CTX_free(context) }
        var der = [UInt8](repeating: 0, count: 80)
        var derLength = der.count
        let signed = message.withUnsafeBytes { bytes in
            EVP_DigestSignInit(context, nil, EVP_sha256(), nil, key) == 1
                && EVP_DigestSign(context, &der, &derLength, bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count) == 1
        }
        guard signed else {
            ERR_clear_error()
            throw DeliveryError(.io, "OpenSSL: ES256 signing failed")
        }
        return try Self.joseSignature(fromDER: Array(der.prefix(derLength)))
    }

    /// The DER `ECDSA-Sig-Value` (SEQUENCE of INTEGER r, INTEGER s) OpenSSL writes, as JOSE's r||s.
    static func joseSignature(fromDER der: [UInt8]) throws(DeliveryError) -> [UInt8] {
        let parsed: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
            var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
            return d2i_ECDSA_SIG(nil, &cursor, buffer.count)
        }
        guard let parsed else {
            ERR_clear_error()
            throw DeliveryError(.io, "OpenSSL: unreadable ECDSA signature")
        }
        defer { ECDSA_SIG_free(parsed) }
        var r: OpaquePointer?
        var s: OpaquePointer?
        ECDSA_SIG_get0(parsed, &r, &s)
        var out = [UInt8](repeating: 0, count: 64)
        let written = out.withUnsafeMutableBufferPointer { buffer -> Bool in
            guard let base = buffer.baseAddress else { return false }
            return BN_bn2binpad(r, base, 32) == 32 && BN_bn2binpad(s, base + 32, 32) == 32
        }
        guard written else { throw DeliveryError(.io, "OpenSSL: ECDSA signature does not fit P-256") }
        return out
    }
}
