import Foundation
import LandmarkNear
import LandmarkNearChecks
@_spi(Inlining) import LandmarkNearGeodesy

/// `landmark-bench distance`: `ShortGeodesic.distance` (and `MidpointGeodesic.distance`, `VincentyGeodesic.distance`) against `geod_inverse` over many seeded
/// random pairs worldwide (poles, ±180°, every chord class up to `ShortGeodesic.longestChord`),
/// the largest error per class next to the bound the index relies on, and the cost of both.
/// Exits non-zero when a bound is broken. The unit tests run the same check on 100k pairs.
enum DistanceCheck {
    static let usage = "landmark-bench distance [--pairs 1000000] [--seed 1]"

    static func run(_ arguments: [String]) throws(BenchError) {
        let options = try Options(arguments, allowed: ["pairs", "seed"])
        let pairs = try options.int("pairs", default: 1_000_000)
        let seed = UInt64(try options.int("seed", default: 1))
        let (report, seconds) = MonotonicClock.time { ShortGeodesicCheck.run(pairs: pairs, seed: seed) }
        print("ShortGeodesic vs geod_inverse, \(pairs.grouped) pairs, seed \(seed) (\(String(format: "%.1f", seconds)) s)\n")
        print(
            "| chord class | pairs | largest error | bound | largest error / bound | MidpointGeodesic's largest error | its bound | Vincenty's largest error | not converged |"
        )
        print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
        for c in report.classes {
            let midpoint =
                c.lower < MidpointGeodesic.longestChord
                ? String(format: "%.3g m | %.3g m", c.midpointWorstError, MidpointGeodesic.errorBound(chord: c.upper)) : "– | –"
            print(
                String(
                    format: "| %.0f–%.0f km | %@ | %.3g m | %.3g m | %.3f | %@ | %.3g m | %d |", c.lower / 1000, c.upper / 1000,
                    c.pairs.grouped, c.worstError, c.bound, c.worstShareOfBound, midpoint, c.vincentyWorstError,
                    c.vincentyUnconverged))
        }
        print("\nVincenty's bound: \(VincentyGeodesic.errorBound) m (used by the index where ShortGeodesic's exceeds it)")
        for c in report.classes {
            if let (a, b) = c.worstPair { print("worst pair ≤ \(Int(c.upper / 1000)) km: \(a) → \(b)") }
        }
        // Cost: the same 100k short pairs (<= 10 km) both ways.
        let timed = ShortGeodesicCheck.ShortPairs(count: 100_000, seed: seed)
        let (fastSum, fast) = MonotonicClock.time { timed.sumOfShortGeodesics() }
        let (exactSum, exact) = MonotonicClock.time { timed.sumOfGeodInverses() }
        print(
            String(
                format:
                    "\ncost per pair (<= 10 km, from cached ECEF points): ShortGeodesic %.1f ns, geod_inverse %.1f ns (sums %.3f, %.3f m)",
                fast / Double(timed.count) * 1e9, exact / Double(timed.count) * 1e9, fastSum, exactSum))
        // Cost of the long lines' closer measurements: 100k pairs 300 to 2,000 km apart.
        let long = ShortGeodesicCheck.LongPairs(count: 100_000, seed: seed)
        let (midpointSum, midpoint) = MonotonicClock.time { long.sumOfMidpointGeodesics() }
        let (vincentySum, vincenty) = MonotonicClock.time { long.sumOfVincentys() }
        let (longExactSum, longExact) = MonotonicClock.time { long.sumOfGeodInverses() }
        print(
            String(
                format:
                    "cost per pair (300–2,000 km): MidpointGeodesic %.1f ns, VincentyGeodesic %.1f ns, geod_inverse %.1f ns (sums %.3f, %.3f, %.3f m)",
                midpoint / Double(long.count) * 1e9, vincenty / Double(long.count) * 1e9, longExact / Double(long.count) * 1e9,
                midpointSum, vincentySum, longExactSum))
        guard report.holds else { throw BenchError("a bound of ShortGeodesic.errorBound is broken (see the table)") }
        guard report.midpointHolds else { throw BenchError("MidpointGeodesic.errorBound is broken (see the table)") }
        guard report.vincentyHolds else { throw BenchError("VincentyGeodesic.errorBound is broken (see the table)") }
    }
}
