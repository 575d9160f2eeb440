import Foundation

/// The WGS84 geodesic distance of a short line from its two Earth-centred points, at a small
/// fraction of `geod_inverse`'s cost (measured; see Benchmarks/LOG.md), with an error bound
/// against `geod_inverse` that the tests establish (`ShortGeodesicBoundTests`, and
/// `landmark-bench distance` over 1M+ pairs).
///
/// How: over a short line the geodesic is very nearly an arc of a circle whose radius is the
/// ellipsoid's radius of curvature R in the line's direction at its middle (Euler's formula,
/// 1/R = cos²α/M + sin²α/N), so the length of the arc over the chord c is
/// s = 2R asin(c / 2R) = c (1 + c²/(24R²) + 3c⁴/(640R⁴) + 5c⁶/(7168R⁶) + …).
/// Everything comes from the Cartesian points, without trigonometry:
/// - the surface normal n at the middle: the gradient of x²/a² + y²/a² + z²/b² at the chord's
///   midpoint m, i.e. g = (m_x, m_y, m_z / (1 − e²)), so sin φ = g_z / |g|;
/// - with d = Q − P, its part along the normal is d·n and its horizontal part has
///   |d_h|² = c² − (d·n)²; the northward part of d_h is (d_z − sin φ (d·n)) / cos φ, so
///   cos²φ cos²α = (d_z − sin φ (d·n))² / |d_h|² (no division by cos φ: fine at the poles);
/// - N/M − 1 = e′² cos²φ, hence 1/R = (W / a)(1 + e′² cos²φ cos²α), W = √(1 − e² sin²φ).
///
/// The error against `geod_inverse` grows like c⁵ (the arc model ignores how the curvature
/// changes along the line): the largest measured over 10M pairs is about 3·10⁻³² c⁵ in every
/// class from 50 km up (0.26 µm at 100 km, 0.26 mm at 400 km, 0.85 m at 2000 km) and a few
/// nanometres (Cartesian rounding) below. `errorBound(chord:)` holds it per length class with a
/// margin of at least 10× over the largest error measured. Beyond `longestChord` the model is
/// not used.
///
///     let p = EarthCenteredPoint(Coordinate(latitude: 34, longitude: -116))
///     let q = EarthCenteredPoint(Coordinate(latitude: 34.05, longitude: -116.1))
///     ShortGeodesic.distance(from: p, to: q)   // 10 733.63… m, as geod_inverse to ~1e-10 m
@_spi(Inlining) public enum ShortGeodesic {
    /// The longest chord (metres) for which `distance` and `errorBound` may be used. Lines
    /// beyond a few hundred kilometres are far from "short" (the error reaches metres), but the
    /// bound still ranks far candidates: it is a thousand times tighter than the chord's.
    public static let longestChord = 10_000_000.0
    /// Up to this chord the arc length comes from its series (no `asin`): `MidpointGeodesic`
    /// measures halves of lines up to 2,000 km with it.
    @usableFromInline static let longestSeriesChord = 1_000_000.0

    /// e′² = e² / (1 − e²).
    @usableFromInline static let secondEccentricitySquared =
        EllipsoidConstants.eccentricitySquared / (1 - EllipsoidConstants.eccentricitySquared)
    @usableFromInline static let inversePolarFactor = 1 / (1 - EllipsoidConstants.eccentricitySquared)
    @usableFromInline static let inverseEquatorialRadius = 1 / EllipsoidConstants.equatorialRadius

    /// The geodesic distance between two surface points at most `longestChord` apart (chord).
    @inlinable @inline(__always)
    public static func distance(from p: EarthCenteredPoint, to q: EarthCenteredPoint) -> Double {
        let dx = q.x - p.x
        let dy = q.y - p.y
        let dz = q.z - p.z
        let c2 = dx * dx + dy * dy + dz * dz
        return distance(p, dx, dy, dz, chordSquared: c2)
    }

    /// `distance` when the caller already has d = Q − P and c² (the index's hot loop).
    @inlinable @inline(__always)
    public static func distance(
        _ p: EarthCenteredPoint, _ dx: Double, _ dy: Double, _ dz: Double,
        chordSquared c2: Double
    ) -> Double {
        guard c2 > 0 else { return 0 }
        // Midpoint m = P + d/2 and the normal direction g there (not normalised: |g|² divides).
        let gx = p.x + 0.5 * dx
        let gy = p.y + 0.5 * dy
        let gz = (p.z + 0.5 * dz) * inversePolarFactor
        let g2 = gx * gx + gy * gy + gz * gz
        let dg = dx * gx + dy * gy + dz * gz
        // sin²φ = gz²/|g|²;  (d·n)² = (d·g)²/|g|²;  d_z − sin φ (d·n) = d_z − gz (d·g)/|g|².
        let inverseG2 = 1 / g2
        let sin2 = gz * gz * inverseG2
        let normal2 = dg * dg * inverseG2
        let north = dz - gz * dg * inverseG2
        let horizontal2 = c2 - normal2
        let northShare = horizontal2 > 0 ? north * north / horizontal2 : 0
        let w = (1 - EllipsoidConstants.eccentricitySquared * sin2).squareRoot()
        let curvature = w * inverseEquatorialRadius * (1 + secondEccentricitySquared * northShare)
        let x = c2 * curvature * curvature
        let c = c2.squareRoot()
        guard c <= longestSeriesChord else {
            return 2 * Foundation.asin(min(1, 0.5 * c * curvature)) / curvature
        }
        // 2R asin(c / 2R) / c = asin(y) / y with y² = x / 4, x = (c/R)², in powers of x (the
        // n-th coefficient (2n)! / (4ⁿ n!² (2n + 1) 4ⁿ)); x < 0.026 here (R >= b²/a), where
        // the next term is below 1e-17 of c.
        return c
            * (1 + x
                * (1.0 / 24
                    + x
                    * (3.0 / 640
                        + x * (5.0 / 7168 + x * (35.0 / 294_912 + x * (63.0 / 2_883_584 + x * (231.0 / 54_525_952)))))))
    }

    /// The largest difference (metres) between `distance` and `geod_inverse` for a chord of
    /// this length (<= `longestChord`), with a margin of at least 10× over the largest error
    /// measured in its class by `landmark-bench distance` (10M pairs) and never below 100 nm.
    public static func errorBound(chord: Double) -> Double {
        if chord <= 10_000 { return 1e-7 }
        if chord <= 50_000 { return 2e-7 }
        if chord <= 100_000 { return 3e-6 }
        if chord <= 200_000 { return 1e-4 }
        if chord <= 300_000 { return 1e-3 }
        if chord <= 400_000 { return 3e-3 }
        if chord <= 1_000_000 { return 0.3 }
        if chord <= 2_000_000 { return 10 }
        if chord <= 5_000_000 { return 1_000 }
        return 40_000
    }
}
