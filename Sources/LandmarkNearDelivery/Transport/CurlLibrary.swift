import CCurl
@_spi(Inlining) import LandmarkNearCore

/// libcurl's functions that the deliveries call, opened when a run's deliveries are set up
/// (`NotificationDelivery`, at the start of a `watch` or `serve` with `--push` or `--webhook`;
/// `SharedLibrary`): runs that deliver nothing never open it, nor the Kerberos, LDAP, SSH and
/// compression libraries it brings.
///
///     guard CurlLibrary.functions.global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK else { … }
enum CurlLibrary {
    /// Opened once, on first use (Swift initialises a static `let` lazily and thread-safely).
    /// `libcurl.so` is the OpenSSL build's development link (`libcurl4-openssl-dev`), whose
    /// TLS context the APNs trust callback configures.
    static let functions: landmark_curl = SharedLibrary(
        names: ["libcurl.so", "libcurl.so.4"], purpose: "deliveries (libcurl)", package: "libcurl4-openssl-dev"
    ).table(landmark_curl_resolve)
}
