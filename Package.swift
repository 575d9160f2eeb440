// swift-tools-version:6.2
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
            dependencies: ["CGEOS", "CGeodesic", "CLibXML2", "CSQLite", "CLinux"],
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
            // CGEOS: the map tests check GeoJSON geometries with GEOS's own validity test.
            dependencies: ["LandmarkNear", "CGEOS"],
            path: "Tests/LandmarkNearTests",
            resources: [.copy("Fixtures")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
