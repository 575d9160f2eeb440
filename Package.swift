// swift-tools-version:6.2
import PackageDescription

// Release builds link the Swift runtime and Foundation into the binary, as `swift build
// --static-swift-stdlib` does: the dynamic loader's symbol lookups and relocations for a dozen
// Swift libraries, and their pages, weigh on every start and on a catalog load's peak memory
// (measured: a third of a start; see Benchmarks/LOG.md); the installed binary also runs
// without a Swift runtime on the machine. Every Swift target of a
// release build compiles against the static runtime's modules (their autolinked libraries must be
// the static ones), and each linked product links it. Debug builds (the tests) stay dynamic.
//
// The library is split into layers (below), and the hot path of every command crosses them: a
// fix is read (Readers) with the byte toolkit (Core), decided (Engine) over the index (Index) with
// geodesics (Geodesy). `-cross-module-optimization` lets the optimizer inline and specialize
// across those module boundaries as it did inside the one module before; without it each small
// call stays a call (measured: `watch` at less than half its speed; see Benchmarks/LOG.md).
let staticRuntime: [SwiftSetting] = [.unsafeFlags(["-static-stdlib", "-cross-module-optimization"], .when(configuration: .release))]
let staticRuntimeLink: [LinkerSetting] = [.unsafeFlags(["-static-stdlib"], .when(configuration: .release))]

/// A library layer: a target under Sources/NAME, compiled as every Swift target of the package is.
func layer(_ name: String, _ dependencies: [Target.Dependency], resources: [Resource]? = nil) -> Target {
    .target(name: name, dependencies: dependencies, path: "Sources/\(name)", resources: resources, swiftSettings: staticRuntime)
}

let package = Package(
    name: "LandmarkNear",
    products: [
        .library(name: "LandmarkNear", targets: ["LandmarkNear"]),
        .executable(name: "landmark-near", targets: ["landmark-near"]),
        .executable(name: "landmark-bench", targets: ["landmark-bench"]),
    ],
    targets: [
        // GEOS's reentrant C API (Debian: libgeos-dev).
        .systemLibrary(
            name: "CGEOS",
            path: "Sources/CGEOS",
            pkgConfig: "geos",
            providers: [.apt(["libgeos-dev"])]
        ),
        // PROJ's geodesic.h: Karney's WGS84 geodesics (Debian: libproj-dev). Headers only: the library is
        // opened on first use (PROJLibrary).
        .systemLibrary(
            name: "CGeodesic",
            path: "Sources/CGeodesic",
            providers: [.apt(["libproj-dev"])]
        ),
        // libxml2's push parser: GPX, KML and TCX read in chunks, in bounded memory (Debian: libxml2-dev).
        .systemLibrary(
            name: "CLibXML2",
            path: "Sources/CLibXML2",
            pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"])]
        ),
        // zlib's inflate: gzip-compressed fix inputs, streamed (Debian: zlib1g-dev).
        .systemLibrary(
            name: "CZlib",
            path: "Sources/CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        // GNU libmicrohttpd: the HTTP server of `serve` (Debian: libmicrohttpd-dev). Headers only: the
        // library is opened on first use (MicroHTTPDLibrary), as are libcurl and PROJ.
        .systemLibrary(
            name: "CMicroHTTPD",
            path: "Sources/CMicroHTTPD",
            providers: [.apt(["libmicrohttpd-dev"])]
        ),
        // libmosquitto 2.0: the MQTT client of `serve --mqtt` (Debian: libmosquitto-dev). Headers only: the
        // library is opened on first use (MosquittoLibrary), so a machine without it loses only --mqtt.
        .systemLibrary(
            name: "CMosquitto",
            path: "Sources/CMosquitto",
            providers: [.apt(["libmosquitto-dev"])]
        ),
        // libnats 3.4: the NATS JetStream client of `publish` and `serve --nats` (Debian: libnats-dev).
        // Headers only: the library is opened on first use (NATSLibrary).
        .systemLibrary(
            name: "CNATS",
            path: "Sources/CNATS",
            providers: [.apt(["libnats-dev"])]
        ),
        // GnuTLS, libmicrohttpd's TLS library: the certificate that `serve --tls-cert` presents, read
        // again on SIGHUP (Debian: libgnutls28-dev). Headers only: opened on first use (GnuTLSLibrary).
        .systemLibrary(
            name: "CGnuTLS",
            path: "Sources/CGnuTLS",
            providers: [.apt(["libgnutls28-dev"])]
        ),
        // libxcrypt's crypt(3): password hashes of `serve --users` (Debian: libcrypt-dev).
        .systemLibrary(
            name: "CCrypt",
            path: "Sources/CCrypt",
            pkgConfig: "libxcrypt",
            providers: [.apt(["libcrypt-dev"])]
        ),
        // libcurl's multi interface: APNs over HTTP/2 (nghttp2) and webhooks (Debian: libcurl4-openssl-dev).
        // Headers only: the library is opened on first use (CurlLibrary).
        .systemLibrary(
            name: "CCurl",
            path: "Sources/CCurl",
            providers: [.apt(["libcurl4-openssl-dev"])]
        ),
        // OpenSSL: ES256 JWTs for APNs token auth, SHA-1 name-based UUIDs, --apns-ca (Debian: libssl-dev).
        .systemLibrary(
            name: "COpenSSL",
            path: "Sources/COpenSSL",
            pkgConfig: "openssl",
            providers: [.apt(["libssl-dev"])]
        ),
        // SQLite: the --state database (Debian: libsqlite3-dev).
        .systemLibrary(
            name: "CSQLite",
            path: "Sources/CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        // signalfd(2) and syncfs(2) from the C library (nothing to install).
        .systemLibrary(name: "CLinux", path: "Sources/CLinux"),
        // The library, in layers along the data flow; each target depends only on those below it, and
        // SwiftPM refuses a cycle, so no arrow can run back up (docs/ARCHITECTURE.md draws the graph).
        // Values at the bottom: coordinates, fixes, the catalog, device keys and tokens, times,
        // lengths, errors, the byte-text and JSON toolkits, buffered output.
        layer("LandmarkNearCore", ["CLinux"]),
        // WGS84 geodesics (PROJ's geodesic.h), earth-centred points, cap boxes and distance bounds.
        layer("LandmarkNearGeodesy", ["LandmarkNearCore", "CGeodesic"]),
        // The spatial index: exact within and nearest over packed buckets, GEOS for wide searches.
        layer("LandmarkNearIndex", ["LandmarkNearGeodesy", "CGEOS", "CLinux"]),
        // The proximity engine: per-device state machines, favourites, profiles, cooldowns.
        layer("LandmarkNearEngine", ["LandmarkNearIndex", "CLinux"]),
        // Everything read: fixes in every format, catalogs (geometries with GEOS), profiles, nearest queries.
        layer("LandmarkNearReaders", ["LandmarkNearEngine", "CGEOS", "CLibXML2", "CZlib"]),
        // Everything written: event lines, payloads and .apns files, the state database, maps, answers.
        // The map page's HTML, CSS, scripts and basemap are files of their own, embedded in the binary. GEOS
        // buffers places for their radius outlines and cuts them at ±180°.
        layer(
            "LandmarkNearOutputs", ["LandmarkNearReaders", "CGEOS", "CSQLite", "CLinux"],
            resources: ["map.html", "map.css", "map-places.js", "map-basemap.js", "map-labels.js", "map.js", "basemap.json"].map {
                .embedInCode("Map/Page/\($0)")
            }),
        // APNs over HTTP/2 and webhooks (libcurl, OpenSSL), on a thread of their own.
        layer("LandmarkNearDelivery", ["LandmarkNearOutputs", "CCurl", "COpenSSL"]),
        // The inputs of `serve`: HTTP (libmicrohttpd: routes, client decoders, users, metrics), MQTT
        // (libmosquitto: the broker's messages in, event lines out) and NATS JetStream (libnats: the
        // partitions' messages in, and `publish`'s out), and the engine queue they share.
        layer("LandmarkNearServer", ["LandmarkNearDelivery", "CMicroHTTPD", "CGnuTLS", "CMosquitto", "CNATS", "COpenSSL", "CCrypt"]),
        // Payloads back into the watch app's notification view model.
        layer("LandmarkNearParser", ["LandmarkNearOutputs"]),
        // The sessions: the one pipeline (source -> engine -> outputs -> commit -> emitters) that
        // `watch`, `serve` and `map` run, and the `nearest` stream.
        layer("LandmarkNearSessions", ["LandmarkNearServer", "LandmarkNearParser", "CLinux"]),
        // The library product: every layer under one import, and the versions of the C libraries.
        .target(
            name: "LandmarkNear",
            dependencies: ["LandmarkNearSessions", "CGEOS", "CGeodesic", "CLibXML2"],
            path: "Sources/LandmarkNear",
            swiftSettings: staticRuntime
        ),
        // Self-checks of the short-line distance bound, for the tests and `landmark-bench distance`
        // (evidence, not part of the library).
        layer("LandmarkNearChecks", ["LandmarkNearGeodesy"]),
        .executableTarget(
            name: "landmark-near",
            dependencies: ["LandmarkNear"],
            path: "Sources/landmark-near",
            swiftSettings: staticRuntime,
            linkerSettings: staticRuntimeLink
        ),
        .executableTarget(
            name: "landmark-bench",
            dependencies: ["LandmarkNear", "LandmarkNearChecks"],
            path: "Benchmarks/Sources/landmark-bench",
            swiftSettings: staticRuntime,
            linkerSettings: staticRuntimeLink
        ),
        .testTarget(
            name: "LandmarkNearTests",
            // CGEOS: the map tests check GeoJSON geometries with GEOS's own validity test.
            // CZlib: the tests write gzip bombs with deflate.
            // CLinux: the tests spawn children with posix_spawn (ChildProcess).
            dependencies: ["LandmarkNear", "LandmarkNearChecks", "CGEOS", "CZlib", "CLinux"],
            path: "Tests/LandmarkNearTests",
            resources: [.copy("Fixtures")],
            swiftSettings: staticRuntime,
            linkerSettings: staticRuntimeLink
        ),
    ],
    swiftLanguageModes: [.v6]
)
