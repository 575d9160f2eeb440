import Foundation

/// Rigorous bounds of the WGS84 geodesic distance from the chord (straight-line distance) between
/// the two surface points, so that most decisions need no geodesic computation:
///
/// - lower: a straight line is the shortest curve, so distance >= chord;
/// - upper: a geodesic's curvature is at most 1/ρ with ρ = b²/a (the sharpest normal section of
///   the ellipsoid), and by Schur's comparison theorem a curve of length s <= πρ with curvature
///   <= 1/ρ has a chord of at least 2ρ sin(s / 2ρ); so distance <= 2ρ asin(chord / 2ρ). Chords
///   under 12 000 km rule out s > πρ (such points are nearly antipodal, with chords of at least
///   2ρ − 101 km ≈ 12 570 km); beyond that the bound is half a meridian.
///
/// Both carry a margin of a micrometre, far above the rounding of the chord and the few
/// nanometres of error of Karney's algorithm. The gap between them is about chord³/(24ρ²):
/// half a millimetre at 8 km, a metre at 100 km.
///
///     GeodesicBounds.lower(chord: 8000)   // 7999.999999 m
///     GeodesicBounds.upper(chord: 8000)   // 8000.000532 m
@_spi(Inlining) public enum GeodesicBounds {
    /// Absolute slack added to both bounds, metres.
    public static let margin = 1e-6

    /// A distance that is at most the geodesic distance (and at most the computed one).
    static func lower(chord: Double) -> Double {
        chord - margin
    }

    /// A distance that is at least the geodesic distance (and at least the computed one).
    ///
    /// Up to 2,000 km, the arc comes from its series, c (1 + x/24 + 3x²/640 + 5x³/7168 + …) with
    /// x = (c/ρ)² <= 0.1: every term is positive and each is less than x/4 times the one before
    /// (the n-th coefficient of asin(y)/y in y² = x/4 is (2n)! / (4ⁿ n!² (2n + 1)), and
    /// (2n + 1)² < (2n + 2)(2n + 3)), so twice the x³ term bounds all from there on up to 400 km,
    /// twice the x⁵ term beyond (no `asin`, which is called at each improvement of the bound,
    /// where far from land the bounds are of hundreds of kilometres: measured to matter in a
    /// nearest query; see Benchmarks/LOG.md).
    @inlinable @inline(__always)
    public static func upper(chord: Double) -> Double {
        guard chord < 12_000_000 else { return EllipsoidConstants.longestGeodesic }
        let rho = EllipsoidConstants.smallestRadiusOfCurvature
        let arc: Double
        if chord <= 400_000 {
            let x = chord * chord / (rho * rho)
            arc = chord * (1 + x * (1.0 / 24 + x * (3.0 / 640 + x * (2 * 5.0 / 7168))))
        } else if chord <= 2_000_000 {
            let x = chord * chord / (rho * rho)
            arc =
                chord
                * (1 + x * (1.0 / 24 + x * (3.0 / 640 + x * (5.0 / 7168 + x * (35.0 / 294_912 + x * (2 * 63.0 / 2_883_584))))))
        } else {
            arc = 2 * rho * asin(chord / (2 * rho))
        }
        return arc * (1 + 1e-12) + margin
    }
}
