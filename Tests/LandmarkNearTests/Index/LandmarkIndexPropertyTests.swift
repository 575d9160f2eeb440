import Foundation
import Testing

@_spi(Inlining) @testable import LandmarkNearCore
@testable import LandmarkNearIndex
@testable import LandmarkNearServer

/// `LandmarkIndex` against a brute-force scan on many seeded random queries: a quarter anywhere,
/// a quarter within 1° of the poles, a quarter within 1° of ±180°, a quarter on or near a
/// landmark. Answers must agree: same landmarks, same order, distances within
/// `LandmarkIndex.tolerance(ofDistance:)` (3 µm to 400 km, at most 1 mm) of `geod_inverse`'s.
@Suite(.suiteTimeLimit) struct LandmarkIndexPropertyTests {
    enum LandmarkSet: String, CaseIterable, CustomTestStringConvertible {
        case embedded, citySample, crowdedAtPolesAndAntimeridian

        func coordinates() throws -> [Coordinate] {
            switch self {
            case .embedded: return LandmarkCatalog.embedded.landmarks.map(\.coordinate)
            case .citySample: return try IndexTestSupport.citySample()
            case .crowdedAtPolesAndAntimeridian: return IndexTestSupport.hardLandmarks(count: 3000, seed: 7)
            }
        }

        var testDescription: String { rawValue }
    }

    static let queryCount = 10_000

    /// Radii: mostly 5 miles, else anything up to `largest`, sometimes 0.
    static func radius(_ rng: inout IndexTestSupport.SeededGenerator, largest: Double) -> Double {
        switch Int.random(in: 0..<10, using: &rng) {
        case 0: return 0
        case 1...5: return 8046.72
        default: return Double.random(in: 0...largest, using: &rng)
        }
    }

    @Test(arguments: LandmarkSet.allCases)
    func withinEqualsBruteForce(_ set: LandmarkSet) throws {
        let coordinates = try set.coordinates()
        #expect(!coordinates.isEmpty)
        let index = LandmarkIndex(coordinates: coordinates)
        let reference = BruteForceReference(coordinates)
        var rng = IndexTestSupport.SeededGenerator(seed: 1)
        var mismatches = 0
        var answered = 0
        for _ in 0..<Self.queryCount {
            let point = IndexTestSupport.queryPoint(&rng, near: coordinates)
            // Continental radii over thousands of landmarks would only time the geodesics.
            let radius = Self.radius(&rng, largest: coordinates.count > 5000 ? 100_000 : 3_000_000)
            let expected = reference.within(radius, of: point)
            let actual = index.within(radius, of: point)
            if !expected.isEmpty { answered += 1 }
            if !IndexTestSupport.agree(actual, expected) {
                mismatches += 1
                if mismatches <= 3 {
                    Issue.record("within(\(radius), of: \(point)): \(actual.prefix(5)) != expected \(expected.prefix(5))")
                }
            }
        }
        #expect(mismatches == 0)
        // The queries must exercise non-empty answers, or the comparison proves little.
        #expect(answered > Self.queryCount / 10)
    }

    @Test(arguments: LandmarkSet.allCases)
    func nearestEqualsBruteForce(_ set: LandmarkSet) throws {
        let coordinates = try set.coordinates()
        let index = LandmarkIndex(coordinates: coordinates)
        let reference = BruteForceReference(coordinates)
        var rng = IndexTestSupport.SeededGenerator(seed: 2)
        var mismatches = 0
        for _ in 0..<Self.queryCount {
            let point = IndexTestSupport.queryPoint(&rng, near: coordinates)
            let limit =
                Int.random(in: 0..<20, using: &rng) == 0
                ? Int.random(in: 1...(coordinates.count + 2), using: &rng) % 60 + 1
                : Int.random(in: 1...4, using: &rng)
            let expected = reference.nearest(to: point, limit: limit)
            let actual = index.nearest(to: point, limit: limit)
            if !IndexTestSupport.agree(actual, expected) {
                mismatches += 1
                if mismatches <= 3 {
                    Issue.record("nearest(to: \(point), limit: \(limit)): \(actual.prefix(5)) != expected \(expected.prefix(5))")
                }
            }
        }
        #expect(mismatches == 0)
    }
}
