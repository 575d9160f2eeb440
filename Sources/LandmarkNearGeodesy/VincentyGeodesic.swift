import Foundation
@_spi(Inlining) import LandmarkNearCore

/// The WGS84 geodesic distance by Vincenty's inverse method (1975), for the lines too long for
/// `ShortGeodesic`'s error bound to be small: cheaper than `geod_inverse` (measured; see
/// Benchmarks/LOG.md), with an error bound against `geod_inverse` that the tests establish
/// (`VincentyBoundTests`, and `landmark-bench distance` over millions of pairs).
///
/// How: with reduced latitudes U (tan U = (1 − f) tan φ), the longitude difference λ on the
/// auxiliary sphere is found by fixed-point iteration of
/// λ = L + (1 − C) f sin α (σ + C sin σ (cos 2σm + C cos σ (−1 + 2 cos² 2σm))), and the
/// distance is s = b A (σ − Δσ) with Vincenty's series in u² = e′² cos² α. Its error comes from
/// truncating those series in f: the largest measured over 12M pairs of every length up to
/// 170° of arc is 8·10⁻⁵ m; `errorBound` claims 1 mm. It is not used near antipodes (chords
/// over `longestChord`), where the iteration converges slowly or not at all, nor when 20
/// iterations do not converge: the callers fall back to `geod_inverse`.
///
///     VincentyGeodesic.distance(
///         from: Coordinate(latitude: 40.6, longitude: -73.8), to: Coordinate(latitude: 51.6, longitude: -0.5))
///     // 5 554 …  m, within a millimetre of geod_inverse
@_spi(Inlining) public enum VincentyGeodesic {
    /// The largest difference (metres) from `geod_inverse` claimed: 12× the largest measured.
    public static let errorBound = 1e-3
    /// Chords up to this length (metres) may be measured here (antipodal points are 12 713 km
    /// apart through the Earth).
    static let longestChord = 12_000_000.0

    private static let f = EllipsoidConstants.flattening
    @usableFromInline static let b = EllipsoidConstants.equatorialRadius * (1 - EllipsoidConstants.flattening)
    private static let secondEccentricitySquared =
        EllipsoidConstants.eccentricitySquared / (1 - EllipsoidConstants.eccentricitySquared)

    /// The distance in metres, or nil where the iteration did not converge.
    public static func distance(from p: Coordinate, to q: Coordinate) -> Double? {
        distance(from: p, EarthCenteredPoint(p), to: q, EarthCenteredPoint(q))
    }

    /// `distance(from:to:)` when the caller has the points' Earth-centred forms too (the index
    /// keeps them): the reduced latitudes come from them without trigonometry, since a surface
    /// point is (a cos U cos λ, a cos U sin λ, b sin U).
    public static func distance(
        from p: Coordinate, _ pe: EarthCenteredPoint, to q: Coordinate, _ qe: EarthCenteredPoint
    ) -> Double? {
        let radians = Double.pi / 180
        var dLon = q.longitude - p.longitude
        if dLon > 180 { dLon -= 360 } else if dLon < -180 { dLon += 360 }
        let l = dLon * radians
        let (sinU1, cosU1) = reducedLatitude(pe)
        let (sinU2, cosU2) = reducedLatitude(qe)
        let sinL = sin(l)
        let cosL = cos(l)
        var lambda = l
        var sinLambda = sinL
        var cosLambda = cosL
        var sinSigma = 0.0
        var cosSigma = 0.0
        var sigma = 0.0
        var cosSquaredAlpha = 0.0
        var cos2SigmaM = 0.0
        var converged = false
        for _ in 0..<20 {
            let t1 = cosU2 * sinLambda
            let t2 = cosU1 * sinU2 - sinU1 * cosU2 * cosLambda
            sinSigma = (t1 * t1 + t2 * t2).squareRoot()
            if sinSigma == 0 { return 0 }  // the same point
            cosSigma = sinU1 * sinU2 + cosU1 * cosU2 * cosLambda
            sigma = atan2(sinSigma, cosSigma)
            let sinAlpha = cosU1 * cosU2 * sinLambda / sinSigma
            cosSquaredAlpha = 1 - sinAlpha * sinAlpha
            // On the equator cos² α = 0 and cos 2σm does not matter.
            cos2SigmaM = cosSquaredAlpha != 0 ? cosSigma - 2 * sinU1 * sinU2 / cosSquaredAlpha : 0
            let c = f / 16 * cosSquaredAlpha * (4 + f * (4 - 3 * cosSquaredAlpha))
            let previous = lambda
            lambda =
                l + (1 - c) * f * sinAlpha
                * (sigma + c * sinSigma * (cos2SigmaM + c * cosSigma * (-1 + 2 * cos2SigmaM * cos2SigmaM)))
            if abs(lambda - previous) <= 1e-12 {
                converged = true
                break
            }
            // λ = L + δ with |δ| <= f π (the correction's factor f sin α times at most π): sin λ
            // and cos λ by turning L's by δ, whose sine and cosine the small-angle series give
            // (`DegreeTrigonometry.sinCos(smallRadians:)`), instead of a sin and a cos an
            // iteration.
            let delta = lambda - l
            guard abs(delta) <= 0.02 else {
                sinLambda = sin(lambda)
                cosLambda = cos(lambda)
                continue
            }
            let (sinDelta, cosDelta) = DegreeTrigonometry.sinCos(smallRadians: delta)
            sinLambda = sinL * cosDelta + cosL * sinDelta
            cosLambda = cosL * cosDelta - sinL * sinDelta
        }
        guard converged else { return nil }
        let u2 = cosSquaredAlpha * secondEccentricitySquared
        let bigA = 1 + u2 / 16384 * (4096 + u2 * (-768 + u2 * (320 - 175 * u2)))
        let bigB = u2 / 1024 * (256 + u2 * (-128 + u2 * (74 - 47 * u2)))
        let c2 = cos2SigmaM * cos2SigmaM
        let deltaSigma =
            bigB * sinSigma
            * (cos2SigmaM + bigB / 4
                * (cosSigma * (-1 + 2 * c2) - bigB / 6 * cos2SigmaM * (-3 + 4 * sinSigma * sinSigma) * (-3 + 4 * c2)))
        return b * bigA * (sigma - deltaSigma)
    }

    /// (sin U, cos U) of a surface point from (z / b, √(x² + y²) / a), normalised: no
    /// trigonometry, fine at the poles.
    @inlinable @inline(__always) static func reducedLatitude(_ point: EarthCenteredPoint) -> (sin: Double, cos: Double) {
        let y = point.z * (1 / b)
        let x = (point.x * point.x + point.y * point.y).squareRoot() * (1 / EllipsoidConstants.equatorialRadius)
        let r = (x * x + y * y).squareRoot()
        return (y / r, x / r)
    }
}
