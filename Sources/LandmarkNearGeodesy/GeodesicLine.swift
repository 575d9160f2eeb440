import CGeodesic
@_spi(Inlining) import LandmarkNearCore

/// One geodesic of the ellipsoid, set up once (`geod_lineinit` / `geod_inverseline`) so that
/// positions along it cost a series evaluation each, not a direct problem (`geod_genposition`).
///
///     let line = Geodesic.wgs84.line(from: jfk, to: lhr)
///     line.position(at: line.length / 2).coordinate   // the midpoint of the great-circle route
@_spi(Inlining) public struct GeodesicLine: Sendable {
    /// Latitude, longitude and azimuth by distance: what every caller asks of a position.
    static let capabilities =
        GEOD_LATITUDE.rawValue | GEOD_LONGITUDE.rawValue | GEOD_AZIMUTH.rawValue | GEOD_DISTANCE_IN.rawValue

    private var line: geod_geodesicline
    private let proj: landmark_proj

    init(line: geod_geodesicline, proj: landmark_proj) {
        self.line = line
        self.proj = proj
    }

    /// The distance (metres) to the end point of a line made from two points; NaN for a line
    /// made from a start and an azimuth.
    public var length: Double { line.s13 }

    /// The point `distance` metres along the line (negative: behind the start) and the line's
    /// forward azimuth there. Longitude in [−180, 180].
    public func position(at distance: Double) -> (coordinate: Coordinate, azimuth: Double) {
        var latitude = 0.0
        var longitude = 0.0
        var azimuth = 0.0
        withUnsafePointer(to: line) { l in
            _ = proj.geod_genposition(
                l, GEOD_NOFLAGS.rawValue, distance, &latitude, &longitude, &azimuth, nil, nil, nil, nil, nil)
        }
        return (Coordinate(latitude: latitude, longitude: longitude), azimuth)
    }

    /// The latitude `distance` metres along the line, the longitude travelled from the start
    /// (unrolled: not reduced to ±180°, so it grows monotonically along the line) and the
    /// forward azimuth there.
    public func unrolledPosition(at distance: Double) -> (latitude: Double, longitudeChange: Double, azimuth: Double) {
        var latitude = 0.0
        var longitude = 0.0
        var azimuth = 0.0
        withUnsafePointer(to: line) { l in
            _ = proj.geod_genposition(
                l, GEOD_LONG_UNROLL.rawValue, distance, &latitude, &longitude, &azimuth, nil, nil, nil, nil, nil)
        }
        return (latitude, longitude - line.lon1, azimuth)
    }
}
