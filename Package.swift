// swift-tools-version:6.0
import PackageDescription

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
        // PROJ's geodesic.h: Karney's WGS84 geodesics (Debian: libproj-dev).
        .systemLibrary(
            name: "CGeodesic",
            path: "Sources/CGeodesic",
            pkgConfig: "proj",
            providers: [.apt(["libproj-dev"])]
        ),
        // libxml2's push parser: GPX read in chunks, in bounded memory (Debian: libxml2-dev).
        .systemLibrary(
            name: "CLibXML2",
            path: "Sources/CLibXML2",
            pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"])]
        ),
        // libcurl's multi interface: APNs over HTTP/2 (nghttp2) and webhooks (Debian: libcurl4-openssl-dev).
        .systemLibrary(
            name: "CCurl",
            path: "Sources/CCurl",
            pkgConfig: "libcurl",
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
        .target(
            name: "LandmarkNear",
            dependencies: ["CGEOS", "CGeodesic", "CLibXML2", "CSQLite", "CLinux", "CCurl", "COpenSSL"],
            path: "Sources/LandmarkNear"
        ),
        .executableTarget(
            name: "landmark-near",
            dependencies: ["LandmarkNear"],
            path: "Sources/landmark-near"
        ),
        .executableTarget(
            name: "landmark-bench",
            dependencies: ["LandmarkNear"],
            path: "Benchmarks/Sources/landmark-bench"
        ),
        .testTarget(
            name: "LandmarkNearTests",
            dependencies: ["LandmarkNear"],
            path: "Tests/LandmarkNearTests",
            resources: [.copy("Fixtures")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
