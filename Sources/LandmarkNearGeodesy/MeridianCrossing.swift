import Foundation
@_spi(Inlining) import LandmarkNearCore

/// The latitude at which a geodesic edge crosses a meridian, on the geodesic (not on the
/// straight line in longitude and latitude).
///
/// How: along a geodesic that is not a meridian the longitude changes monotonically (Clairaut:
/// sin α cos β is constant and not zero, so sin α keeps its sign), at dλ/ds = sin α / (N cos φ)
/// radians per metre (N the prime vertical radius, N cos φ the distance from the axis). So
/// g(s) = ±(λ(s) − λ_target) is increasing, negative at the start and positive at the end, and
/// Newton's iteration on it, kept inside the bracket where g changes sign (bisection when a
/// step would leave it), converges, quadratically near the root. It stops when a step is under
/// 10⁻⁷ m, where the latitude is within 10⁻¹² degrees.
///
///     MeridianCrossing.latitude(on: GeodesicSegment(edge), longitudeChange: 5)
enum MeridianCrossing {
    /// The latitude (degrees) where `edge` has travelled `change` degrees of longitude from its
    /// start: strictly between 0 and the edge's sweep, which is below 180 in magnitude (an edge
    /// that touches or passes a pole crosses meridians there).
    static func latitude(on segment: GeodesicSegment, longitudeChange change: Double) -> Double {
        let edge = segment.edge
        let line = segment.line
        let sign: Double = edge.sweep > 0 ? 1 : -1
        let e2 = EllipsoidConstants.eccentricitySquared
        let a = EllipsoidConstants.equatorialRadius
        var lo = 0.0
        var hi = segment.length
        var s = segment.length * min(max(change / edge.sweep, 0), 1)
        for _ in 0..<200 {
            let position = line.unrolledPosition(at: s)
            let g = sign * (position.longitudeChange - change)
            if g == 0 { return position.latitude }
            if g < 0 { lo = s } else { hi = s }
            let (sinPhi, cosPhi) = DegreeTrigonometry.sinCos(degrees: position.latitude)
            let sinAlpha = DegreeTrigonometry.sinCos(degrees: position.azimuth).sin
            let n = a / (1 - e2 * sinPhi * sinPhi).squareRoot()
            // Degrees of longitude per metre, in the direction of g (positive).
            let rate = sign * sinAlpha / (n * cosPhi) * (180 / Double.pi)
            var next = s - g / rate
            if !(next > lo && next < hi) { next = 0.5 * (lo + hi) }
            if abs(next - s) < 1e-7 || hi - lo < 1e-7 { return position.latitude }
            s = next
        }
        return line.unrolledPosition(at: s).latitude
    }
}
