import CGeodesic
@_spi(Inlining) import LandmarkNearCore

/// WGS84 ellipsoidal geodesics by Karney's algorithm, computed by PROJ's `geodesic.h`
/// (the C port of GeographicLib). Exact to a few nanometres everywhere, antipodes and poles
/// included.
///
///     let metres = Geodesic.wgs84.distance(
///         from: Coordinate(latitude: 40.6, longitude: -73.8),   // JFK
///         to: Coordinate(latitude: 51.6, longitude: -0.5))      // LHR
public struct Geodesic: Sendable {
    private var ellipsoid = geod_geodesic()
    /// PROJ's functions, held here so that a distance calls them without asking for the library
    /// again (the first `Geodesic` opens it: `PROJLibrary`).
    private let proj: landmark_proj

    /// Equatorial radius `a` in metres and flattening `f`.
    public init(equatorialRadius: Double, flattening: Double) {
        proj = PROJLibrary.functions
        proj.geod_init(&ellipsoid, equatorialRadius, flattening)
    }

    /// The WGS84 ellipsoid (a = 6378137 m, f = 1/298.257223563).
    public static let wgs84 = Geodesic(equatorialRadius: 6_378_137, flattening: 1 / 298.257223563)

    /// The geodesic distance in metres between two points (the inverse problem).
    public func distance(from a: Coordinate, to b: Coordinate) -> Double {
        var s12 = 0.0
        withUnsafePointer(to: ellipsoid) { g in
            proj.geod_inverse(g, a.latitude, a.longitude, b.latitude, b.longitude, &s12, nil, nil)
        }
        return s12
    }

    /// Distance in metres and the forward azimuth at `a`, in degrees clockwise from north.
    public func inverse(from a: Coordinate, to b: Coordinate) -> (distance: Double, azimuth: Double) {
        var s12 = 0.0
        var azi1 = 0.0
        withUnsafePointer(to: ellipsoid) { g in
            proj.geod_inverse(g, a.latitude, a.longitude, b.latitude, b.longitude, &s12, &azi1, nil)
        }
        return (s12, azi1)
    }

    /// The point reached from `start` after `distance` metres along `azimuth` degrees
    /// (the direct problem). Longitude comes back in [-180, 180].
    public func destination(from start: Coordinate, azimuth: Double, distance: Double) -> Coordinate {
        var lat2 = 0.0
        var lon2 = 0.0
        withUnsafePointer(to: ellipsoid) { g in
            proj.geod_direct(g, start.latitude, start.longitude, azimuth, distance, &lat2, &lon2, nil)
        }
        return Coordinate(latitude: lat2, longitude: lon2)
    }
}
