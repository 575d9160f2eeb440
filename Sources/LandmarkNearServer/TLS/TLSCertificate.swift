import CGnuTLS
@_spi(Inlining) import LandmarkNearCore
import Synchronization

/// `serve --tls-cert FILE --tls-key FILE`: the certificate chain and key that TLS handshakes
/// present, read again on SIGHUP (a renewed certificate) without restarting the daemon.
///
/// libmicrohttpd takes a certificate only when a daemon starts (MHD_OPTION_HTTPS_MEM_CERT) and
/// has no call to change it later. So the daemon is given a certificate callback instead
/// (MHD_OPTION_HTTPS_CERT_CALLBACK, GnuTLS's `gnutls_certificate_retrieve_function2`), which
/// GnuTLS calls in every handshake: it hands out the identity installed last. A reload parses
/// the files into a new identity and installs it; the next handshake presents it, while the
/// connections already open keep theirs. Nothing restarts, no connection is dropped, and the
/// engine never notices. (Restarting the listener on the same socket with a new daemon would
/// also work, but two daemons would then share the connection limits and every client of the
/// old one would be cut off when it stops.)
///
/// An identity is checked before it is installed, with GnuTLS's own loader of a certificate
/// and key pair (which refuses a key that is not the certificate's): a reload that fails keeps
/// the identity in use. Every identity installed stays in memory until the process ends:
/// GnuTLS keeps the pointers of the one a handshake was given and never frees them, and a
/// renewal every few weeks costs a few kilobytes.
///
///     let tls = try TLSCertificate(certificatePath: "cert.pem", keyPath: "key.pem")
///     try tls.reload()   // SIGHUP
package final class TLSCertificate: Sendable {
    package let certificatePath: String
    package let keyPath: String

    /// TLS 1.2 and 1.3 only, GnuTLS's normal ciphers for them.
    package static let priorities = "NORMAL:-VERS-ALL:+VERS-TLS1.3:+VERS-TLS1.2"

    /// Reads and installs the pair: `.missingInput` when a file cannot be opened, `.badData` when
    /// GnuTLS refuses its content.
    package init(certificatePath: String, keyPath: String) throws(ServerError) {
        self.certificatePath = certificatePath
        self.keyPath = keyPath
        try reload()
    }

    /// Reads both files again; the new pair serves every handshake from now on. On failure the
    /// pair in use stays.
    package func reload() throws(ServerError) {
        let certificate = try Self.read(certificatePath, .tlsCertificate)
        let key = try Self.read(keyPath, .tlsKey)
        let identity = try TLSIdentity(certificatePEM: certificate, keyPEM: key, certificatePath: certificatePath, keyPath: keyPath)
        installedIdentities.withLock { $0.append(identity) }
    }

    /// The callback to hand libmicrohttpd (MHD_OPTION_HTTPS_CERT_CALLBACK).
    static var callback: UnsafeMutableRawPointer {
        unsafeBitCast(presentCertificate, to: UnsafeMutableRawPointer.self)
    }

    private static func read(_ path: String, _ setting: ServerError.Setting) throws(ServerError) -> [UInt8] {
        do {
            return try InputFile.read(path: path, limit: 1 << 20, tooLarge: "more than a certificate or key holds")
        } catch {
            throw ServerError(kind: error.kind, setting: setting, message: error.description)
        }
    }
}

/// Every identity installed, the last in use (see `TLSCertificate`: none is ever freed). One
/// per process: `serve` runs one daemon.
private let installedIdentities = Mutex<[TLSIdentity]>([])

/// What GnuTLS calls in a handshake for the server's certificate (on a daemon thread): the
/// identity installed last, or -1 (the handshake fails) when there is none.
private let presentCertificate:
    @convention(c) (
        gnutls_session_t?, UnsafePointer<gnutls_datum_t>?, Int32, UnsafePointer<gnutls_pk_algorithm_t>?, Int32,
        UnsafeMutablePointer<UnsafeMutablePointer<gnutls_pcert_st>?>?, UnsafeMutablePointer<UInt32>?,
        UnsafeMutablePointer<gnutls_privkey_t?>?
    ) -> Int32 = { _, _, _, _, _, certificates, count, key in
        guard let certificates, let count, let key else { return -1 }
        return installedIdentities.withLock { identities in
            guard let current = identities.last else { return -1 }
            certificates.pointee = current.certificates
            count.pointee = current.count
            key.pointee = current.key
            return 0
        }
    }

/// A certificate chain and its private key in GnuTLS's forms, as a handshake presents them.
private final class TLSIdentity: @unchecked Sendable {
    // Never changed after init, and never freed (see `TLSCertificate`).
    let certificates: UnsafeMutablePointer<gnutls_pcert_st>
    let count: UInt32
    let key: gnutls_privkey_t

    /// At most this many certificates in a chain (the server's and its intermediates).
    static let maximumChain: UInt32 = 16

    init(certificatePEM: [UInt8], keyPEM: [UInt8], certificatePath: String, keyPath: String) throws(ServerError) {
        let gnutls = GnuTLSLibrary.functions
        // GnuTLS's loader of a pair checks that each parses and that the key is the certificate's.
        var check: gnutls_certificate_credentials_t?
        guard gnutls.certificate_allocate_credentials(&check) == 0, let check else {
            throw ServerError(kind: .io, setting: .tlsCertificate, message: "\(certificatePath): GnuTLS could not allocate credentials")
        }
        defer { gnutls.certificate_free_credentials(check) }
        let paired = Self.withDatum(certificatePEM) { certificate in
            Self.withDatum(keyPEM) { key in gnutls.certificate_set_x509_key_mem2(check, certificate, key, GNUTLS_X509_FMT_PEM, nil, 0) }
        }
        guard paired >= 0 else {
            throw ServerError(
                kind: .badData, setting: .tlsCertificate,
                message:
                    "\(TerminalText.safe(certificatePath)) with --tls-key \(TerminalText.safe(keyPath)): \(GnuTLSLibrary.message(paired))")
        }
        let chain = UnsafeMutablePointer<gnutls_pcert_st>.allocate(capacity: Int(Self.maximumChain))
        chain.initialize(repeating: gnutls_pcert_st(), count: Int(Self.maximumChain))
        var count = Self.maximumChain
        let imported = Self.withDatum(certificatePEM) { gnutls.pcert_list_import_x509_raw(chain, &count, $0, GNUTLS_X509_FMT_PEM, 0) }
        guard imported >= 0, count > 0 else {
            chain.deallocate()
            throw ServerError(
                kind: .badData, setting: .tlsCertificate,
                message:
                    "\(TerminalText.safe(certificatePath)): \(GnuTLSLibrary.message(imported)) (at most \(Self.maximumChain) certificates)")
        }
        var key: gnutls_privkey_t?
        guard gnutls.privkey_init(&key) == 0, let key else {
            for index in 0..<Int(count) { gnutls.pcert_deinit(chain + index) }
            chain.deallocate()
            throw ServerError(kind: .io, setting: .tlsKey, message: "\(keyPath): GnuTLS could not make a key")
        }
        let loaded = Self.withDatum(keyPEM) { gnutls.privkey_import_x509_raw(key, $0, GNUTLS_X509_FMT_PEM, nil, 0) }
        guard loaded >= 0 else {
            gnutls.privkey_deinit(key)
            for index in 0..<Int(count) { gnutls.pcert_deinit(chain + index) }
            chain.deallocate()
            throw ServerError(kind: .badData, setting: .tlsKey, message: "\(TerminalText.safe(keyPath)): \(GnuTLSLibrary.message(loaded))")
        }
        certificates = chain
        self.count = count
        self.key = key
    }

    /// `bytes` as a `gnutls_datum_t` for the call (GnuTLS copies what it keeps).
    private static func withDatum<Result>(_ bytes: [UInt8], _ body: (UnsafePointer<gnutls_datum_t>) -> Result) -> Result {
        var bytes = bytes
        return bytes.withUnsafeMutableBufferPointer { buffer in
            var datum = gnutls_datum_t(data: buffer.baseAddress, size: UInt32(buffer.count))
            return withUnsafePointer(to: &datum) { body($0) }
        }
    }
}
