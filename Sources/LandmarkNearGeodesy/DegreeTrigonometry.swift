import Foundation

/// The sine and cosine of an angle in degrees, within a few units in the last place of the C
/// library's, without its call: every query turns its coordinate into an Earth-centred point
/// with two of them, and glibc's `sincos` is ready for any radian argument, with the reduction
/// that takes (measured: an eighth of a 5-mile search; see Benchmarks/LOG.md).
///
/// How: degrees reduce exactly to the nearest multiple of 90° (x − 90k is a difference of two
/// doubles on x's grid, smaller than x, so it is representable), which leaves |r| <= 45° (a
/// hair more where x/90 rounds across a half), i.e. |θ| <= π/4 in radians; there the Taylor
/// series of sin to θ¹⁷ and of cos to θ¹⁸ leave out terms below 1e-19 (θ¹⁹/19! and θ²⁰/20! at
/// π/4), far under half a unit in the last place; the quadrant k mod 4 turns the pair.
/// Multiples of 90° come out exact (cos 90° is 0, not 6e-17).
///
///     DegreeTrigonometry.sinCos(degrees: 30)   // (0.5, 0.866…), each to a unit in the last place
@_spi(Inlining) public enum DegreeTrigonometry {
    /// (sin x°, cos x°); NaN, infinities and angles over a million degrees take the C library's
    /// way.
    @inlinable @inline(__always)
    public static func sinCos(degrees: Double) -> (sin: Double, cos: Double) {
        guard abs(degrees) <= 1_000_000 else {
            let radians = degrees * (Double.pi / 180)
            return (sin(radians), cos(radians))
        }
        // The nearest whole number of quarter turns by truncation of x/90 ± 0.5 (`rounded()` is
        // a call to the C library's `round` here, measured to matter; see Benchmarks/LOG.md).
        let quarters = Int(degrees * (1.0 / 90) + (degrees < 0 ? -0.5 : 0.5))
        let turns = Double(quarters)
        let theta = (degrees - 90 * turns) * (Double.pi / 180)
        let t2 = theta * theta
        // Horner in θ² with the coefficients ±1/n! (constants: no division at run time).
        let sinTail =
            -1.0 / 6 + t2
            * (1.0 / 120 + t2
                * (-1.0 / 5040 + t2
                    * (1.0 / 362_880 + t2
                        * (-1.0 / 39_916_800 + t2
                            * (1.0 / 6_227_020_800 + t2 * (-1.0 / 1_307_674_368_000 + t2 * (1.0 / 355_687_428_096_000)))))))
        let cosTail =
            -1.0 / 2 + t2
            * (1.0 / 24 + t2
                * (-1.0 / 720 + t2
                    * (1.0 / 40320 + t2
                        * (-1.0 / 3_628_800 + t2
                            * (1.0 / 479_001_600 + t2
                                * (-1.0 / 87_178_291_200 + t2
                                    * (1.0 / 20_922_789_888_000 + t2 * (-1.0 / 6_402_373_705_728_000))))))))
        let s = theta + theta * t2 * sinTail
        let c = 1 + t2 * cosTail
        // The quadrant turns the pair: (s, c), (c, −s), (−s, −c), (−c, s) for k mod 4 = 0 ... 3;
        // without branches (selects, and signs as factors ±1, which change nothing but the
        // sign, as negation does): a switch on k mispredicts for points all over the world
        // (measured; see Benchmarks/LOG.md).
        let odd = quarters & 1 != 0
        let sineSign = Double(1 - (quarters & 2))
        let cosineSign = Double(1 - ((quarters &+ 1) & 2))
        return ((odd ? c : s) * sineSign, (odd ? s : c) * cosineSign)
    }

    /// (sin x, cos x) for a small angle in radians, |x| <= 0.05, by the Taylor series to x⁷ and
    /// x⁸: the terms left out are at most 1.1e-16 of them (x⁸/9! of sin x at 0.05; 7e-20 at
    /// 0.02), so the result is within a unit or two in the last place. For the small turns of
    /// the geodesy: a cap's latitude step, Vincenty's λ − L.
    @inlinable @inline(__always)
    static func sinCos(smallRadians x: Double) -> (sin: Double, cos: Double) {
        let x2 = x * x
        let sine = x * (1 - x2 / 6 * (1 - x2 / 20 * (1 - x2 / 42)))
        let cosine = 1 - x2 / 2 * (1 - x2 / 12 * (1 - x2 / 30 * (1 - x2 / 56)))
        return (sine, cosine)
    }
}
