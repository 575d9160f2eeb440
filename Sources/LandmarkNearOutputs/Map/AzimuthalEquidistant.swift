import Glibc
@_spi(Inlining) import LandmarkNearCore
@_spi(Inlining) import LandmarkNearGeodesy

/// The azimuthal equidistant projection about a centre on the WGS84 ellipsoid, both ways by the
/// geodesic problems: a point goes to (s sin α, s cos α) — s and α its geodesic distance and
/// azimuth from the centre, x east and y north in metres — and comes back by the direct problem,
/// so the two are inverse to each other to the geodesics' own nanometres.
///
/// Why this plane for a place's outline: distances from the centre are true, and across the
/// plane lengths are shrunk by the reduced length over the distance, about 1 − (s/a)²/6 at s
/// from the centre (0.004 % at 100 km, 0.4 % at 1,000 km): a buffer drawn there is close to the
/// geodesic one, and the exact distance corrects what is left (`PlaceOutline`). It is one-to-one
/// up to the cut locus of the centre (near its antipode), which outlines keep far from.
///
///     let plane = AzimuthalEquidistant(center: Coordinate(latitude: 48.7, longitude: -113.5))
///     plane.project(Coordinate(latitude: 48.7, longitude: -113.4))   // (7,361.0, 4.8) m
struct AzimuthalEquidistant: Sendable {
    let center: Coordinate
    let geodesic: Geodesic

    init(center: Coordinate, geodesic: Geodesic = .wgs84) {
        self.center = center
        self.geodesic = geodesic
    }

    /// The point's position in the plane, metres (x east, y north).
    func project(_ p: Coordinate) -> SIMD2<Double> {
        let (distance, azimuth) = geodesic.inverse(from: center, to: p)
        let radians = azimuth * .pi / 180
        return SIMD2(distance * sin(radians), distance * cos(radians))
    }

    /// The point at a position of the plane.
    func unproject(_ v: SIMD2<Double>) -> Coordinate {
        let distance = (v.x * v.x + v.y * v.y).squareRoot()
        guard distance > 0 else { return center }
        return geodesic.destination(from: center, azimuth: atan2(v.x, v.y) * 180 / .pi, distance: distance)
    }
}
