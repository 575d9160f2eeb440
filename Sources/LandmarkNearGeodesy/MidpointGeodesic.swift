/// The WGS84 geodesic distance of a line of a few hundred to 2,000 km within 0.2 mm of
/// `geod_inverse` (0.1 mm up to 1,000 km), from `ShortGeodesic` over the line's halves (and quarters),
/// extrapolated: about a third of `VincentyGeodesic`'s cost and no iteration, with an error bound
/// against `geod_inverse` that the tests establish (`ShortGeodesicBoundTests`, and
/// `landmark-bench distance` over millions of pairs). The index measures with it where
/// `ShortGeodesic`'s bound is too wide for an answer (lines over 300 km), before Vincenty.
///
/// Why it works:
/// - A geodesic is a shortest path, so its length is stationary: a path P → M → Q through a
///   point M off the geodesic by δ is longer only by O(δ²/s). The surface point below the
///   chord's midpoint along the surface normal lies on the geodesic to within a few metres over
///   2,000 km (a geodesic's osculating plane holds the normal, so the chord's midpoint lies
///   below the geodesic's midpoint along it up to the line's small torsion), so splitting there
///   costs well under a nanometre of length.
/// - `ShortGeodesic`'s error grows like K c⁵ with K smooth along the line, so the halves'
///   errors add up to about K c⁵ / 16 and S* = (16 S_halves − S_whole) / 15 cancels the c⁵ term
///   (Richardson's extrapolation); what is left grows like c⁷: 7·10⁻⁶ m at 1,000 km measured.
///   Past 1,000 km the same is done one level down, (16 S_quarters − S_halves) / 15.
///
/// The surface point below a point m inside the ellipsoid (at most 80 km deep here): move m
/// along the ellipsoid's normal direction at m, n ∝ (m_x, m_y, m_z / (1 − e²)), by the t that
/// puts it on the surface (a quadratic in t, in its cancellation-free form). The normal at m and
/// at the surface point differ by about e² × depth / a (10⁻⁴ rad at 80 km), which moves the
/// point a few metres along the surface and changes no length that matters here.
///
///     let p = EarthCenteredPoint(Coordinate(latitude: 40.6, longitude: -73.8))
///     let q = EarthCenteredPoint(Coordinate(latitude: 35.2, longitude: -80.9))
///     MidpointGeodesic.distance(from: p, to: q, chord: p.chord(to: q))   // 864 979.2… m, as geod_inverse to ~10 µm
@_spi(Inlining) public enum MidpointGeodesic {
    /// The longest chord (metres) for which `distance` and `errorBound` may be used.
    public static let longestChord = 2_000_000.0
    /// Up to this chord one level of halves is enough; beyond, the quarters.
    static let longestHalvedChord = 1_000_000.0

    /// 1/a² and 1/b² (multiplications, not divisions, in `surfacePoint`).
    @usableFromInline static let inverseA2 = 1 / (EllipsoidConstants.equatorialRadius * EllipsoidConstants.equatorialRadius)
    @usableFromInline static let inverseB2 = inverseA2 / (1 - EllipsoidConstants.eccentricitySquared)
    @usableFromInline static let inversePolarFactor = 1 / (1 - EllipsoidConstants.eccentricitySquared)

    /// The geodesic distance between two surface points whose chord is `chord` (<= `longestChord`).
    public static func distance(from p: EarthCenteredPoint, to q: EarthCenteredPoint, chord: Double) -> Double {
        let m = surfacePoint(between: p, q)
        let halves = ShortGeodesic.distance(from: p, to: m) + ShortGeodesic.distance(from: m, to: q)
        guard chord > longestHalvedChord else {
            return (16 * halves - ShortGeodesic.distance(from: p, to: q)) * (1.0 / 15)
        }
        let first = surfacePoint(between: p, m)
        let second = surfacePoint(between: m, q)
        let quarters =
            ShortGeodesic.distance(from: p, to: first) + ShortGeodesic.distance(from: first, to: m)
            + ShortGeodesic.distance(from: m, to: second) + ShortGeodesic.distance(from: second, to: q)
        return (16 * quarters - halves) * (1.0 / 15)
    }

    /// The largest difference (metres) between `distance` and `geod_inverse` for a chord of this
    /// length (<= `longestChord`): at least 10× the largest error measured in its class by
    /// `landmark-bench distance` (10M pairs), never below 100 nm (Cartesian rounding).
    public static func errorBound(chord: Double) -> Double {
        if chord <= 400_000 { return 2e-7 }
        if chord <= 1_000_000 { return 1e-4 }
        return 2e-4
    }

    /// The surface point below the midpoint of the chord from `p` to `q`, along the normal.
    @inlinable @inline(__always)
    static func surfacePoint(between p: EarthCenteredPoint, _ q: EarthCenteredPoint) -> EarthCenteredPoint {
        let mx = 0.5 * (p.x + q.x)
        let my = 0.5 * (p.y + q.y)
        let mz = 0.5 * (p.z + q.z)
        // n = (m_x, m_y, m_z / (1 − e²)), left unnormalised: t scales with it.
        let nx = mx
        let ny = my
        let nz = mz * inversePolarFactor
        // F(m + t n) = A t² + B t + C with F(x) = (x² + y²)/a² + z²/b² − 1, C = F(m) < 0.
        let a = (nx * nx + ny * ny) * inverseA2 + nz * nz * inverseB2
        let b = 2 * ((mx * nx + my * ny) * inverseA2 + mz * nz * inverseB2)
        let c = (mx * mx + my * my) * inverseA2 + mz * mz * inverseB2 - 1
        // The positive root, −2C / (B + √(B² − 4AC)): no cancellation for a small depth.
        let t = -2 * c / (b + (b * b - 4 * a * c).squareRoot())
        return EarthCenteredPoint(x: mx + t * nx, y: my + t * ny, z: mz + t * nz)
    }
}
