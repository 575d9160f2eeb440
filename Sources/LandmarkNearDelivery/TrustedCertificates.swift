import COpenSSL

/// `--apns-ca FILE`: extra CA certificates (PEM) that TLS trusts besides the system's. They are
/// added to each new connection's OpenSSL certificate store through libcurl's SSL context
/// callback; peer and host verification stay on whatever is given.
final class TrustedCertificates {
    /// Owned `X509*`s, freed in deinit.
    let certificates: [OpaquePointer]

    init(pem: [UInt8], source: String) throws(DeliveryError) {
        var loaded: [OpaquePointer] = []
        pem.withUnsafeBytes { bytes in
            guard let bio = BIO_new_mem_buf(bytes.baseAddress, Int32(bytes.count)) else { return }
            defer { BIO_free(bio) }
            while let certificate = PEM_read_bio_X509(bio, nil, nil, nil) {
                loaded.append(certificate)
            }
        }
        ERR_clear_error()
        guard !loaded.isEmpty else {
            throw DeliveryError(.badData, "\(source): no PEM certificate (-----BEGIN CERTIFICATE-----) in it")
        }
        certificates = loaded
    }

    deinit {
        for certificate in certificates { X509_free(certificate) }
    }

    /// Adds the certificates to an `SSL_CTX`'s store (the store takes its own references).
    func add(to sslContext: UnsafeMutableRawPointer) {
        let context = OpaquePointer(sslContext)
        guard let store = SSL_CTX_get_cert_store(context) else { return }
        for certificate in certificates {
            // A certificate already in the store (a CA cached by libcurl) is not an error.
            _ = X509_STORE_add_cert(store, certificate)
        }
        ERR_clear_error()
    }
}
