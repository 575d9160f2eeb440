import Foundation
@_spi(Inlining) import LandmarkNearCore
@_spi(Inlining) import LandmarkNearGeodesy

/// Measures `ShortGeodesic.distance`, `MidpointGeodesic.distance` and `VincentyGeodesic.distance`
/// against `geod_inverse` on seeded random pairs worldwide, by length class: the evidence behind
/// `ShortGeodesic.errorBound`, `MidpointGeodesic.errorBound` and `VincentyGeodesic.errorBound`.
/// The unit tests run 100k
/// pairs; `landmark-bench distance` runs millions in a release build.
///
/// Pairs: a start point (60 % area-uniform, 20 % within 1° of a pole, one in ten of those on it,
/// 20 % within 1° of ±180°, one in ten on it), a uniform azimuth, a geodesic length uniform in
/// its class (classes taken in turn; a few exact zeros and sub-millimetre lengths), and the end
/// point from the direct problem (`geod_direct`). The class of a pair is that of its chord.
///
///     let report = ShortGeodesicCheck.run(pairs: 100_000, seed: 1)
///     report.classes.allSatisfy { $0.worstError <= $0.bound }   // true
package enum ShortGeodesicCheck {
    /// Upper ends of the chord classes, metres (the last is `ShortGeodesic.longestChord`).
    package static let classLimits: [Double] = [
        1_000, 10_000, 50_000, 100_000, 200_000, 300_000, 400_000, 1_000_000, 2_000_000, 5_000_000, ShortGeodesic.longestChord,
    ]

    package struct LengthClass: Sendable {
        /// Chords in (lower, upper].
        package var lower: Double
        package var upper: Double
        package var pairs = 0
        /// The largest |ShortGeodesic − geod_inverse| seen, metres.
        package var worstError = 0.0
        /// The largest error over the bound claimed for that chord (> 1 means the bound is broken).
        package var worstShareOfBound = 0.0
        package var worstPair: (Coordinate, Coordinate)?
        /// The largest |VincentyGeodesic − geod_inverse| seen, metres, and the pairs where
        /// Vincenty's iteration did not converge (the index then uses geod_inverse).
        package var vincentyWorstError = 0.0
        package var vincentyUnconverged = 0
        /// The largest |MidpointGeodesic − geod_inverse| seen, metres, and the largest share of
        /// its bound (chords up to `MidpointGeodesic.longestChord`; 0 beyond).
        package var midpointWorstError = 0.0
        package var midpointWorstShareOfBound = 0.0
        /// `ShortGeodesic.errorBound` at the class's upper end.
        package var bound: Double { ShortGeodesic.errorBound(chord: upper) }
    }

    package struct Report: Sendable {
        package var classes: [LengthClass]
        package var pairs: Int
        /// Whether every pair's error was within its bound.
        package var holds: Bool { classes.allSatisfy { $0.worstShareOfBound <= 1 } }
        /// Whether every converged Vincenty distance was within `VincentyGeodesic.errorBound`.
        package var vincentyHolds: Bool { classes.allSatisfy { $0.vincentyWorstError <= VincentyGeodesic.errorBound } }
        /// Whether every `MidpointGeodesic` distance was within its bound.
        package var midpointHolds: Bool { classes.allSatisfy { $0.midpointWorstShareOfBound <= 1 } }
    }

    package static func run(pairs: Int, seed: UInt64) -> Report {
        var classes: [LengthClass] = []
        var lower = 0.0
        for upper in classLimits {
            classes.append(LengthClass(lower: lower, upper: upper))
            lower = upper
        }
        var random = SplitMix64(seed: seed)
        let geodesic = Geodesic.wgs84
        for n in 0..<pairs {
            let start = startPoint(&random)
            let lengthClass = n % classLimits.count
            let low = lengthClass == 0 ? 0 : classLimits[lengthClass - 1]
            var length = low + (classLimits[lengthClass] - low) * random.unit()
            if n % 1000 == 0 { length = 0 } else if n % 1000 == 1 { length = random.unit() * 1e-3 }
            let end = geodesic.destination(from: start, azimuth: random.unit() * 360 - 180, distance: length)
            let p = EarthCenteredPoint(start)
            let q = EarthCenteredPoint(end)
            let chord = p.chord(to: q)
            guard chord <= ShortGeodesic.longestChord else { continue }
            let exact = geodesic.distance(from: start, to: end)
            let error = abs(ShortGeodesic.distance(from: p, to: q) - exact)
            let at = classLimits.firstIndex(where: { chord <= $0 }) ?? classLimits.count - 1
            if let vincenty = VincentyGeodesic.distance(from: start, to: end) {
                classes[at].vincentyWorstError = max(classes[at].vincentyWorstError, abs(vincenty - exact))
            } else {
                classes[at].vincentyUnconverged += 1
            }
            if chord <= MidpointGeodesic.longestChord {
                let midpointError = abs(MidpointGeodesic.distance(from: p, to: q, chord: chord) - exact)
                classes[at].midpointWorstError = max(classes[at].midpointWorstError, midpointError)
                classes[at].midpointWorstShareOfBound = max(
                    classes[at].midpointWorstShareOfBound, midpointError / MidpointGeodesic.errorBound(chord: chord))
            }
            classes[at].pairs += 1
            if error > classes[at].worstError {
                classes[at].worstError = error
                classes[at].worstPair = (start, end)
            }
            classes[at].worstShareOfBound = max(classes[at].worstShareOfBound, error / ShortGeodesic.errorBound(chord: chord))
        }
        return Report(classes: classes, pairs: pairs)
    }

    /// `count` seeded pairs of points up to 10 km apart, for timing `ShortGeodesic` against
    /// `geod_inverse` (`landmark-bench distance`).
    package struct ShortPairs: Sendable {
        fileprivate var points: [(EarthCenteredPoint, EarthCenteredPoint, Coordinate, Coordinate)]
        package var count: Int { points.count }

        package init(count: Int, seed: UInt64) {
            var random = SplitMix64(seed: seed)
            points = (0..<count).map { _ in
                let a = Coordinate(latitude: asinDegrees(2 * random.unit() - 1) * 0.9, longitude: random.unit() * 360 - 180)
                let b = Geodesic.wgs84.destination(from: a, azimuth: random.unit() * 360 - 180, distance: random.unit() * 10_000)
                return (EarthCenteredPoint(a), EarthCenteredPoint(b), a, b)
            }
        }

        /// The sum of `ShortGeodesic.distance` over the pairs.
        package func sumOfShortGeodesics() -> Double {
            points.reduce(0) { $0 + ShortGeodesic.distance(from: $1.0, to: $1.1) }
        }

        /// The sum of `geod_inverse` over the pairs.
        package func sumOfGeodInverses() -> Double {
            points.reduce(0) { $0 + Geodesic.wgs84.distance(from: $1.2, to: $1.3) }
        }
    }

    /// `count` seeded pairs of points 300 to 2,000 km apart (where the index measures an answer
    /// again), for timing `MidpointGeodesic` against `VincentyGeodesic` and `geod_inverse`.
    package struct LongPairs: Sendable {
        fileprivate var points: [(EarthCenteredPoint, EarthCenteredPoint, Coordinate, Coordinate, Double)]
        package var count: Int { points.count }

        package init(count: Int, seed: UInt64) {
            var random = SplitMix64(seed: seed)
            points = (0..<count).map { _ in
                let a = Coordinate(latitude: asinDegrees(2 * random.unit() - 1) * 0.9, longitude: random.unit() * 360 - 180)
                let b = Geodesic.wgs84.destination(
                    from: a, azimuth: random.unit() * 360 - 180, distance: 300_000 + random.unit() * 1_700_000)
                let p = EarthCenteredPoint(a)
                let q = EarthCenteredPoint(b)
                return (p, q, a, b, min(p.chord(to: q), MidpointGeodesic.longestChord))
            }
        }

        /// The sum of `MidpointGeodesic.distance` over the pairs.
        package func sumOfMidpointGeodesics() -> Double {
            points.reduce(0) { $0 + MidpointGeodesic.distance(from: $1.0, to: $1.1, chord: $1.4) }
        }

        /// The sum of `VincentyGeodesic.distance` over the pairs (0 where it does not converge).
        package func sumOfVincentys() -> Double {
            points.reduce(0) { $0 + (VincentyGeodesic.distance(from: $1.2, $1.0, to: $1.3, $1.1) ?? 0) }
        }

        /// The sum of `geod_inverse` over the pairs.
        package func sumOfGeodInverses() -> Double {
            points.reduce(0) { $0 + Geodesic.wgs84.distance(from: $1.2, to: $1.3) }
        }
    }

    private static func startPoint(_ random: inout SplitMix64) -> Coordinate {
        let kind = random.unit()
        let longitude = random.unit() * 360 - 180
        if kind < 0.6 {
            return Coordinate(latitude: asinDegrees(2 * random.unit() - 1), longitude: longitude)
        }
        let exact = random.unit() < 0.1
        let sign: Double = random.unit() < 0.5 ? -1 : 1
        if kind < 0.8 {
            return Coordinate(latitude: sign * (90 - (exact ? 0 : random.unit())), longitude: longitude)
        }
        return Coordinate(latitude: asinDegrees(2 * random.unit() - 1), longitude: sign * (180 - (exact ? 0 : random.unit())))
    }

    /// An area-uniform latitude from x uniform in [-1, 1].
    private static func asinDegrees(_ x: Double) -> Double { asin(x) * 180 / Double.pi }
}
