import CGnuTLS
@_spi(Inlining) import LandmarkNearCore

/// The GnuTLS functions that `serve --tls-cert` calls to read a certificate chain and its key
/// (`TLSCertificate`), opened on first use (`SharedLibrary`). It is the library libmicrohttpd
/// itself is built with on Debian, so by then it is loaded already: opening it again costs
/// nothing, and a serve without TLS never asks for it.
enum GnuTLSLibrary {
    /// Opened once, on first use (Swift initialises a static `let` lazily and thread-safely).
    static let functions: landmark_gnutls = SharedLibrary(
        names: ["libgnutls.so", "libgnutls.so.30"], purpose: "TLS (GnuTLS)", package: "libgnutls30"
    ).table(landmark_gnutls_resolve)

    /// GnuTLS's words for an error code.
    static func message(_ code: Int32) -> String {
        functions.error_text(code).map { String(cString: $0) } ?? "GnuTLS error \(code)"
    }
}
