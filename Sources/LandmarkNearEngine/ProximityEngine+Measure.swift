@_spi(Inlining) import LandmarkNearCore
@_spi(Inlining) import LandmarkNearGeodesy

/// The engine's measures of one fix against one favourite: the short-line distance with its
/// bound, when it may be reported, and the exact distance (to a place, or a point).
extension ProximityEngine {
    /// The fix's distance to `favorite` by `ShortGeodesic`, with its error bound (the
    /// geodesic distance lies within `bound` of `distance`); nil for a chord too long for it.
    /// Where the bound settles a decision (surely beyond or surely within a limit) it spares a
    /// `geod_inverse` (measured: with every landmark a favourite, a tenth of `watch`; see
    /// Benchmarks/LOG.md); every decision the bound leaves open is made with `geod_inverse`'s
    /// distance.
    @inline(__always)
    func shortMeasure(_ fixPoint: EarthCenteredPoint, _ favorite: Int) -> (distance: Double, bound: Double)? {
        let other = favoritePoints[favorite]
        let chord = fixPoint.chordSquared(to: other).squareRoot()
        guard chord <= ShortGeodesic.longestChord else { return nil }
        return (ShortGeodesic.distance(from: fixPoint, to: other), ShortGeodesic.errorBound(chord: chord))
    }

    /// The distance an event may report from a short-line measure: `distance` where it and
    /// `geod_inverse`'s distance print alike (`distanceMeters` is rounded to the millimetre:
    /// every value within twice the bound rounds to the same millimetre, and rounding is
    /// monotone, so `geod_inverse`'s does too), nil where they might not (then `geod_inverse`
    /// is asked; asking it for every event is measured to matter, see Benchmarks/LOG.md).
    /// Several events on one fix are measured again exactly before they are ordered.
    @inline(__always)
    static func reportable(_ measured: (distance: Double, bound: Double)) -> Double? {
        let margin = 2 * measured.bound
        let low = ReportedDistance.millimetres(measured.distance - margin)
        return low == ReportedDistance.millimetres(measured.distance + margin) ? measured.distance : nil
    }

    /// Favourite `favorite`'s place, nil for a point.
    @inline(__always)
    func place(of favorite: Int) -> GeodesicShape? { favoriteShapes.isEmpty ? nil : favoriteShapes[favorite] }

    /// The exact distance from `coordinate` to favourite `favorite`: to its place, or its point.
    func exactDistance(from coordinate: Coordinate, to favorite: Int) -> Double {
        if let shape = place(of: favorite) { return shape.distance(from: coordinate) }
        return Geodesic.wgs84.distance(from: coordinate, to: favoriteCoordinates[favorite])
    }
}
