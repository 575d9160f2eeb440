import Foundation
import LandmarkNear

/// `landmark-bench distance`: `ShortGeodesic.distance` against `geod_inverse` over many seeded
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
        print("| chord class | pairs | largest error | bound | largest error / bound |")
        print("|---|---:|---:|---:|---:|")
        for c in report.classes {
            print(String(format: "| %.0f–%.0f km | %@ | %.3g m | %.3g m | %.3f |", c.lower / 1000, c.upper / 1000,
                         c.pairs.grouped, c.worstError, c.bound, c.worstShareOfBound))
        }
        for c in report.classes {
            if let (a, b) = c.worstPair { print("worst pair ≤ \(Int(c.upper / 1000)) km: \(a) → \(b)") }
        }
        // Cost: the same 100k short pairs (≤ 10 km) both ways.
        var points: [(EarthCenteredPoint, EarthCenteredPoint, Coordinate, Coordinate)] = []
        var random = SeededRandom(seed: seed, stream: "distance-cost")
        for _ in 0..<100_000 {
            let a = Coordinate(latitude: random.areaUniformLatitude(south: -80, north: 80), longitude: random.uniform(-180, 180))
            let b = Geodesic.wgs84.destination(from: a, azimuth: random.uniform(-180, 180), distance: random.uniform(0, 10_000))
            points.append((EarthCenteredPoint(a), EarthCenteredPoint(b), a, b))
        }
        var checksum = 0.0
        let (_, fast) = MonotonicClock.time { for p in points { checksum += ShortGeodesic.distance(from: p.0, to: p.1) } }
        let (_, exact) = MonotonicClock.time { for p in points { checksum += Geodesic.wgs84.distance(from: p.2, to: p.3) } }
        print(String(format: "\ncost per pair (≤ 10 km, from cached ECEF points): ShortGeodesic %.1f ns, geod_inverse %.1f ns (checksum %.3f)",
                     fast / 1e5 * 1e9, exact / 1e5 * 1e9, checksum))
        guard report.holds else { throw BenchError("a bound of ShortGeodesic.errorBound is broken (see the table)") }
    }
}
