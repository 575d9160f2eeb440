import CMicroHTTPD
@_spi(Inlining) import LandmarkNearCore

/// GNU libmicrohttpd's functions that `serve` calls, opened when the first daemon starts
/// (`SharedLibrary`): other commands never open it, nor GnuTLS and the libraries it brings.
///
///     let port = landmark_mhd_bound_port(MicroHTTPDLibrary.functions.get_daemon_info, daemon)
enum MicroHTTPDLibrary {
    /// Opened once, on first use (Swift initialises a static `let` lazily and thread-safely).
    static let functions: landmark_mhd = SharedLibrary(
        names: ["libmicrohttpd.so", "libmicrohttpd.so.12"], purpose: "the HTTP server (libmicrohttpd)",
        package: "libmicrohttpd-dev"
    ).table(landmark_mhd_resolve)
}
