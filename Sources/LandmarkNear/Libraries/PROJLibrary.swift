import CGeodesic

/// PROJ's functions that LandmarkNear calls: `geodesic.h`'s (Karney's geodesics, whose C ABI
/// PROJ has kept since 4.9) and `proj_info`. PROJ is opened the first time a `Geodesic` is made
/// (`SharedLibrary`): catalogs load and the index builds without it, and distances up to 400 km
/// are `ShortGeodesic`'s, so most runs never open it.
///
///     var ellipsoid = geod_geodesic()
///     PROJLibrary.functions.geod_init(&ellipsoid, 6_378_137, 1 / 298.257223563)
enum PROJLibrary {
    /// Opened once, on first use (Swift initialises a static `let` lazily and thread-safely).
    static let functions: landmark_proj = SharedLibrary(
        names: ["libproj.so", "libproj.so.25"], purpose: "geodesics (PROJ)", package: "libproj-dev"
    ).table(landmark_proj_resolve)
}
