import CGeodesic
@_spi(Inlining) import LandmarkNearCore

/// PROJ's functions that LandmarkNear calls: `geodesic.h`'s (Karney's geodesics, whose C ABI
/// PROJ has kept since 4.9) and `proj_info`. PROJ is opened the first time a `Geodesic` is made
/// (`SharedLibrary`): catalogs load and the index builds without it, so a run that only loads
/// a catalog, or answers from short distances that settle their printed digits, never opens
/// it; a `ProximityEngine` opens it when it is made.
///
///     var ellipsoid = geod_geodesic()
///     PROJLibrary.functions.geod_init(&ellipsoid, 6_378_137, 1 / 298.257223563)
@_spi(Inlining) public enum PROJLibrary {
    /// Opened once, on first use (Swift initialises a static `let` lazily and thread-safely).
    /// The development link first, then the run-time names of PROJ 9 (Debian 12, Ubuntu 24.04),
    /// 8 (Ubuntu 22.04), 7 and 6.
    public static let functions: landmark_proj = SharedLibrary(
        names: ["libproj.so", "libproj.so.25", "libproj.so.22", "libproj.so.19", "libproj.so.15"],
        purpose: "geodesics (PROJ)", package: "libproj-dev"
    ).table(landmark_proj_resolve)
}
