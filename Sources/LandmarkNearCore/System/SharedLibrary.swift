#if canImport(Glibc)
import Glibc
#endif

/// A C library opened with `dlopen` when first needed, instead of linked: PROJ, libcurl,
/// libmicrohttpd, libmosquitto and libnats, which most runs never call but which, linked,
/// bring most of the shared libraries the program loads at start-up (GnuTLS, Kerberos, LDAP, libtiff, …) and most of
/// the time it takes to start (measured; see Benchmarks/LOG.md).
///
/// Each library's functions are reached through a table that its C module's shim declares
/// (each field typed with `__typeof__` of the header's declaration, so no prototype is written
/// twice) and fills with `dlsym`. A library found is never closed: its functions are used
/// until the process exits. One that cannot be found, or lacks a function, ends the process
/// with a message and status 127, as the dynamic loader would have ended it at start-up had the
/// library been linked. Commands that run for long open theirs at start (`watch` and `serve`
/// open PROJ as their engine is made, libcurl as their deliveries are set up, libmicrohttpd as
/// the daemon starts, libmosquitto as `--mqtt` makes its client, libnats as `publish` and
/// `--nats` connect), so that they fail there, and only the commands (and options) that need a library need it; `nearest` opens PROJ when a
/// distance first needs it.
///
///     let proj = SharedLibrary(names: ["libproj.so", "libproj.so.25"], purpose: "geodesics", package: "libproj-dev")
///         .table(landmark_proj_resolve)
package struct SharedLibrary {
    private let handle: UnsafeMutableRawPointer
    private let name: String
    private let package: String

    /// Opens the first of `names` found: the development link first (present wherever
    /// LandmarkNear was built, whatever the library's version), then run-time names. `purpose`
    /// and the Debian `package` go into the message when none is.
    package init(names: [String], purpose: String, package: String) {
        var reasons: [String] = []
        for name in names {
            if let handle = dlopen(name, RTLD_NOW | RTLD_LOCAL) {
                self.handle = handle
                self.name = name
                self.package = package
                return
            }
            reasons.append(dlerror().map { String(cString: $0) } ?? "\(name): not found")
        }
        Self.fail(
            "cannot load the library for \(purpose) (Debian: apt-get install \(package)): "
                + reasons.joined(separator: "; "))
    }

    /// The table that `resolve` (a shim's `landmark_…_resolve`) fills from this library.
    package func table<Table>(
        _ resolve: (UnsafeMutableRawPointer, UnsafeMutablePointer<UnsafePointer<CChar>?>) -> Table
    ) -> Table {
        var missing: UnsafePointer<CChar>?
        let table = resolve(handle, &missing)
        if let missing {
            Self.fail("\(name) has no function \(String(cString: missing)) (Debian: apt-get install \(package))")
        }
        return table
    }

    /// `_exit`, not `exit`: other threads may be running (a `nearest` stream's writer), and
    /// exit handlers (C++ destructors of the libraries) must not run under them.
    private static func fail(_ reason: String) -> Never {
        let message = "landmark-near: \(reason)\n"
        _ = message.withCString { write(2, $0, strlen($0)) }
        _exit(127)
    }
}
