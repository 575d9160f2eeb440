import Foundation
import Testing

@_spi(Inlining) @testable import LandmarkNearCore
@testable import LandmarkNearReaders

/// The star's one-pass proof (`RingSimplicity.isCertainlyStarShaped`): a ring that turns one
/// way around the mean of its vertices and passes the ray to +x once is simple. Every ring it
/// proves must be one GEOS accepts; a ring that winds twice (a pentagram, a square traced twice)
/// turns one way all along and must not be proved; a ring the star cannot prove is left to the
/// sweep, which still proves what it can.
@Suite(.suiteTimeLimit) struct RingSimplicityStarTests {
    static func star(_ ring: [Coordinate]) -> Bool {
        ring.withUnsafeBufferPointer { RingSimplicity.isCertainlyStarShaped($0) }
    }

    /// A ring of `count` vertices at radius 1 − jitter·u about `center`, going `turns` times
    /// round (1: a star-shaped ring; 2 or more: it crosses itself), either way.
    static func wound(
        _ random: inout SplitMix64, center: (Double, Double), count: Int, turns: Int, jitter: Double, clockwise: Bool
    ) -> [Coordinate] {
        let size = 0.001 + random.unit() * 0.2
        return RingSimplicityTests.closed(
            (0..<count).map { i in
                let angle = (clockwise ? -1.0 : 1.0) * 2 * Double.pi * Double(turns * i) / Double(count)
                let r = size * (1 - jitter * random.unit())
                return (center.0 + r * cos(angle), center.1 + r * sin(angle))
            })
    }

    /// Named rings: the star's verdict, and GEOS's.
    @Test(
        arguments: [
            ("a square", [(0.0, 0.0), (1, 0), (1, 1), (0, 1)], true, true),
            ("a square, clockwise", [(0.0, 0.0), (0, 1), (1, 1), (1, 0)], true, true),
            ("a pentagram", [(0.0, 1.0), (0.588, -0.809), (-0.951, 0.309), (0.951, 0.309), (-0.588, -0.809)], false, false),
            ("a square traced twice", [(0.0, 0.0), (1, 0), (1, 1), (0, 1), (0, 0), (1, 0), (1, 1), (0, 1)], false, false),
            ("a bow tie", [(0.0, 0.0), (1, 1), (1, 0), (0, 1)], false, false),
            ("a C, its mean outside it", [(0.0, 0.0), (3, 0), (3, 1), (1, 1), (1, 2), (3, 2), (3, 3), (0, 3)], false, true),
            ("a vertex at the mean", [(0.0, 0.0), (1, 0), (2, 3), (-3, -3)], false, true),
            ("a spike out and back", [(0.0, 0.0), (2, 0), (2, 2), (1, 2), (1, 3), (1, 2), (0, 2)], false, false),
        ] as [(String, [(Double, Double)], Bool, Bool)])
    func namedRings(_ name: String, _ points: [(Double, Double)], _ proved: Bool, _ valid: Bool) {
        let ring = RingSimplicityTests.closed(points)
        #expect(Self.star(ring) == proved, "\(name)")
        #expect(RingSimplicityTests.geosAccepts(ring) == valid, "\(name)")
    }

    /// A C is not a star about its mean, but the sweep proves it: the star only adds proofs.
    @Test func whatTheStarCannotProveTheSweepStillMay() {
        let ring = RingSimplicityTests.closed([(0.0, 0.0), (3, 0), (3, 1), (1, 1), (1, 2), (3, 2), (3, 3), (0, 3)])
        #expect(!Self.star(ring))
        #expect(RingSimplicity.isCertainlySimple(ring))
    }

    /// Random rings about centres anywhere: once round (valid, and proved unless the mean of the
    /// vertices is off the centre by too much), two to four times round (never proved, GEOS
    /// refuses), and once round with a vertex pulled through the centre or far out (either):
    /// what the star proves, GEOS accepts, and both verdicts are met.
    @Test(arguments: [71, 72, 73] as [UInt64])
    func whatTheStarProvesGEOSAccepts(_ seed: UInt64) {
        var random = SplitMix64(seed: seed)
        var tally = ProofTally()
        for round in 0..<300 {
            let center = (random.unit() * 300 - 150, random.unit() * 120 - 60)
            let count = 5 + Int(random.next() % 60)
            let clockwise = random.unit() < 0.5
            var ring: [Coordinate]
            switch round % 3 {
            case 0:
                ring = Self.wound(&random, center: center, count: count, turns: 1, jitter: 0.3, clockwise: clockwise)
            case 1:
                // A count coprime with the turns (no vertex repeats) and over twice as large
                // (each step less than a half turn, so it winds that many times): it crosses itself.
                let turns = 2 + Int(random.next() % 3)
                let least = max(count, 2 * turns + 1)
                let prime = stride(from: least, through: least + 12, by: 1).first { n in (2...turns).allSatisfy { n % $0 != 0 } }!
                ring = Self.wound(&random, center: center, count: prime, turns: turns, jitter: 0.1, clockwise: clockwise)
                #expect(!Self.star(ring), "\(turns) times round")
                #expect(!RingSimplicityTests.geosAccepts(ring), "\(turns) times round")
            default:
                ring = Self.wound(&random, center: center, count: count, turns: 1, jitter: 0.3, clockwise: clockwise)
                let k = Int(random.next() % UInt64(count))
                let pull = random.unit() < 0.5 ? -0.5 : 3.0
                ring[k] = Coordinate(
                    latitude: center.1 + (ring[k].latitude - center.1) * pull, longitude: center.0 + (ring[k].longitude - center.0) * pull)
                ring[count] = ring[0]
            }
            tally.count(proved: Self.star(ring), geosAccepts: RingSimplicityTests.geosAccepts(ring), "\(ring)")
        }
        tally.expectBothMet()
    }
}
