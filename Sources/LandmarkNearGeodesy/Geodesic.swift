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
    @_spi(Inlining) public init(equatorialRadius: Double, flattening: Double) {
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
    @_spi(Inlining) public func inverse(from a: Coordinate, to b: Coordinate) -> (distance: Double, azimuth: Double) {
        var s12 = 0.0
        var azi1 = 0.0
        withUnsafePointer(to: ellipsoid) { g in
            proj.geod_inverse(g, a.latitude, a.longitude, b.latitude, b.longitude, &s12, &azi1, nil)
        }
        return (s12, azi1)
    }

    /// The point reached from `start` after `distance` metres along `azimuth` degrees
    /// (the direct problem). Longitude comes back in [-180, 180].
    @_spi(Inlining) public func destination(from start: Coordinate, azimuth: Double, distance: Double) -> Coordinate {
        var lat2 = 0.0
        var lon2 = 0.0
        withUnsafePointer(to: ellipsoid) { g in
            proj.geod_direct(g, start.latitude, start.longitude, azimuth, distance, &lat2, &lon2, nil)
        }
        return Coordinate(latitude: lat2, longitude: lon2)
    }

    /// The inverse problem with the quantities of its second variation (Karney 2013, §3):
    /// what a search along a geodesic needs to take Newton steps (`SegmentSearch`).
    @_spi(Inlining) public func generalInverse(from a: Coordinate, to b: Coordinate) -> GeodesicInverse {
        var result = GeodesicInverse()
        withUnsafePointer(to: ellipsoid) { g in
            result.arc = proj.geod_geninverse(
                g, a.latitude, a.longitude, b.latitude, b.longitude, &result.distance, &result.azimuth1,
                &result.azimuth2, &result.reducedLength, &result.scale12, &result.scale21, &result.areaUnder)
        }
        return result
    }

    /// The geodesic that leaves `start` along `azimuth` (degrees clockwise from north), for
    /// positions along it by distance (`GeodesicLine.position(at:)`).
    @_spi(Inlining) public func line(from start: Coordinate, azimuth: Double) -> GeodesicLine {
        var line = geod_geodesicline()
        withUnsafePointer(to: ellipsoid) { g in
            proj.geod_lineinit(&line, g, start.latitude, start.longitude, azimuth, GeodesicLine.capabilities)
        }
        return GeodesicLine(line: line, proj: proj)
    }

    /// The shortest geodesic from `start` to `end` (its `length` is their distance).
    @_spi(Inlining) public func line(from start: Coordinate, to end: Coordinate) -> GeodesicLine {
        var line = geod_geodesicline()
        withUnsafePointer(to: ellipsoid) { g in
            proj.geod_inverseline(
                &line, g, start.latitude, start.longitude, end.latitude, end.longitude, GeodesicLine.capabilities)
        }
        return GeodesicLine(line: line, proj: proj)
    }

    /// The signed area (m²) of the polygon whose edges are the geodesics between consecutive
    /// `vertices` (closed back to the first; not repeated), counter-clockwise positive, reduced
    /// to (−E/2, E/2] where E is the ellipsoid's area: positive when the smaller of the two
    /// regions the ring bounds lies on its left. Karney's `geod_polygonarea`, which follows
    /// edges across ±180° and around a pole.
    @_spi(Inlining) public func signedArea(of vertices: [Coordinate]) -> Double {
        var latitudes = vertices.map(\.latitude)
        var longitudes = vertices.map(\.longitude)
        var area = 0.0
        var perimeter = 0.0
        withUnsafePointer(to: ellipsoid) { g in
            proj.geod_polygonarea(g, &latitudes, &longitudes, Int32(vertices.count), &area, &perimeter)
        }
        return area
    }
}

/// A solution of the inverse problem from point 1 to point 2 with everything `geod_geninverse`
/// gives (Karney, "Algorithms for geodesics", 2013).
@_spi(Inlining) public struct GeodesicInverse: Sendable, Hashable {
    /// s12, metres.
    public var distance = 0.0
    /// Azimuths at point 1 and (forward) at point 2, degrees clockwise from north.
    public var azimuth1 = 0.0
    public var azimuth2 = 0.0
    /// m12, metres: how far point 2 moves sideways per radian the azimuth at point 1 turns.
    public var reducedLength = 0.0
    /// M12: how far apart two geodesics are at point 2 per metre apart at point 1 where they
    /// start parallel; M21 the same from point 2 to point 1. Dimensionless.
    public var scale12 = 0.0
    public var scale21 = 0.0
    /// S12, m²: the area between the geodesic and the equator (counter-clockwise positive), whose
    /// sum around a ring not winding around the axis is the ring's signed area.
    public var areaUnder = 0.0
    /// a12, degrees: the arc length on the auxiliary sphere.
    public var arc = 0.0
}
