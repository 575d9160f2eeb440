import Foundation
import Testing

@_spi(Inlining) @testable import LandmarkNearCore
@testable import LandmarkNearReaders

/// A polygon whose ring `RingSimplicity` proves simple skips GEOS's validity check: every ring
/// it proves must be one GEOS accepts, on rings made to be simple, to cross themselves, to touch
/// themselves and to be nearly degenerate; and the usual outline must be proved (else the
/// start-up pays GEOS for it again).
@Suite(.suiteTimeLimit) struct RingSimplicityTests {
    /// GEOS's own verdict (the proof switched off).
    static func geosAccepts(_ ring: [Coordinate]) -> Bool {
        let reader = ShapeReader(provesSimpleRings: false)
        let text = "POLYGON ((" + ring.map { "\($0.longitude) \($0.latitude)" }.joined(separator: ", ") + "))"
        return (try? reader.read(wkt: text)) != nil
    }

    static func closed(_ points: [(Double, Double)]) -> [Coordinate] {
        let ring = points.map { Coordinate(latitude: $0.1, longitude: $0.0) }
        return ring + [ring[0]]
    }

    /// A star-shaped outline (what a park's is like): proved, and GEOS agrees.
    static func star(_ random: inout SplitMix64, count: Int, jitter: Double) -> [Coordinate] {
        let center = (random.unit() * 300 - 150, random.unit() * 120 - 60)
        let size = 0.001 + random.unit() * 0.2
        return closed(
            (0..<count).map { i in
                let angle = 2 * Double.pi * Double(i) / Double(count)
                let r = size * (1 - jitter * random.unit())
                return (center.0 + r * cos(angle), center.1 + r * sin(angle))
            })
    }

    @Test func starsAreProvedAndValid() {
        var random = SplitMix64(seed: 41)
        for count in [3, 4, 5, 64, 300, 512, 2_000] {
            for _ in 0..<5 {
                let ring = Self.star(&random, count: count, jitter: 0.5)
                #expect(RingSimplicity.isCertainlySimple(ring), "\(count) vertices")
                // The sweep proves them too, without the star's one pass.
                #expect(RingSimplicity.isCertainlyValid([ring], tryingStar: false), "\(count) vertices")
                #expect(Self.geosAccepts(ring))
            }
        }
    }

    /// Random rings of few vertices (mostly crossing themselves), rings with a vertex moved onto
    /// another edge or onto another vertex, spikes, collinear runs, repeated vertices, and
    /// stars with one vertex pulled across the ring: what is proved, GEOS accepts.
    @Test(arguments: [51, 52, 53] as [UInt64])
    func whatIsProvedGEOSAccepts(_ seed: UInt64) {
        var random = SplitMix64(seed: seed)
        var tally = ProofTally()
        for round in 0..<600 {
            var points: [(Double, Double)]
            let count = 4 + Int(random.next() % 9)
            switch round % 6 {
            case 0:
                // Random points on a coarse grid: crossings, touches and collinear runs.
                points = (0..<count).map { _ in (Double(random.next() % 6), Double(random.next() % 6)) }
            case 1:
                points = (0..<count).map { _ in (random.unit(), random.unit()) }
            case 2:
                // A star with one vertex moved onto the middle of a non-adjacent edge.
                points = Self.star(&random, count: count + 4, jitter: 0.3).dropLast().map { ($0.longitude, $0.latitude) }
                let k = Int(random.next() % UInt64(points.count))
                let e = (k + 2) % points.count
                let f = (e + 1) % points.count
                points[k] = ((points[e].0 + points[f].0) / 2, (points[e].1 + points[f].1) / 2)
            case 3:
                // A star with one vertex on another (a pinch) or repeated (a zero edge).
                points = Self.star(&random, count: count + 4, jitter: 0.3).dropLast().map { ($0.longitude, $0.latitude) }
                let k = Int(random.next() % UInt64(points.count))
                points[k] = points[(k + (random.unit() < 0.5 ? 1 : 3)) % points.count]
            case 4:
                // A star with one vertex pulled through the far side (it crosses) or a spike.
                points = Self.star(&random, count: count + 4, jitter: 0.3).dropLast().map { ($0.longitude, $0.latitude) }
                let k = Int(random.next() % UInt64(points.count))
                let cx = points.map(\.0).reduce(0, +) / Double(points.count)
                let cy = points.map(\.1).reduce(0, +) / Double(points.count)
                let pull = random.unit() < 0.5 ? 2.5 : 0.999_999_999_999
                points[k] = (cx + (cx - points[k].0) * pull, cy + (cy - points[k].1) * pull)
            default:
                // Nearly collinear: three vertices a hair off a line, at large coordinates.
                let base = 179.0 + random.unit()
                let t = random.unit()
                points = [(base, 10), (base + 1e-7, 10 + 1e-7), (base + 2e-7, 10 + 2e-7 + t * 1e-21), (base + 1e-7, 10 + 1e-6)]
            }
            let ring = Self.closed(points)
            // Each proof alone: the star's one pass, and the sweep.
            let star = ring.withUnsafeBufferPointer { RingSimplicity.isCertainlyStarShaped($0) }
            let sweep = RingSimplicity.isCertainlyValid([ring], tryingStar: false)
            #expect(RingSimplicity.isCertainlySimple(ring) == (star || sweep))
            tally.count(proved: star || sweep, geosAccepts: Self.geosAccepts(ring), "\(points) (star \(star), sweep \(sweep))")
        }
        tally.expectBothMet()
    }

    /// A bow tie, a ring that touches itself at a vertex, a spike, a zero-area ring: each goes
    /// to GEOS, which names the problem.
    @Test(arguments: [
        [(0.0, 0.0), (1, 1), (1, 0), (0, 1)],
        [(0.0, 0.0), (2, 0), (1, 1), (2, 2), (0, 2), (1, 1)],
        [(0.0, 0.0), (2, 0), (2, 2), (1, 2), (1, 3), (1, 2), (0, 2)],
        [(0.0, 0.0), (1, 1), (2, 2)],
        [(0.0, 0.0), (1, 0), (1, 0), (1, 1)],
    ])
    func problemsGoToGEOS(_ points: [(Double, Double)]) throws {
        let ring = Self.closed(points)
        #expect(!RingSimplicity.isCertainlySimple(ring))
        let text = "POLYGON ((" + ring.map { "\($0.longitude) \($0.latitude)" }.joined(separator: ", ") + "))"
        let valid = (try? ShapeReader().read(wkt: text)) != nil
        #expect(valid == Self.geosAccepts(ring))
    }

    /// A saw: 1,000 teeth along one run of growing x (one of the proof's monotone runs), closed
    /// below by two long edges that rise to the bottom of the middle tooth: short of it the
    /// ring is simple and proved; at it (touching a vertex) or past it (crossing two edges of
    /// the run) it goes to GEOS, which refuses it.
    @Test(arguments: [(0.999, true), (1.0, false), (1.2, false), (1.000_000_000_001, false)] as [(Double, Bool)])
    func aSawAgainstOneLongEdge(_ reach: Double, _ simple: Bool) {
        var points: [(Double, Double)] = (0...1_000).map { i in
            let x = Double(i) * 0.01
            return (x, i % 2 == 0 ? 1.0 : 1.5)
        }
        points += [(10.0, 0.0), (5.0, reach), (0.0, 0.0)]
        // Both ways round: the teeth's run has x growing, then falling.
        for ring in [Self.closed(points), Self.closed(points.reversed())] {
            #expect(RingSimplicity.isCertainlySimple(ring) == simple)
            #expect(Self.geosAccepts(ring) == simple)
        }
    }

    /// GEOS's verdict on a polygon with holes (the proof switched off).
    static func geosAccepts(polygon rings: [[Coordinate]]) -> Bool {
        let reader = ShapeReader(provesSimpleRings: false)
        let text =
            "POLYGON ("
            + rings.map { "(" + $0.map { "\($0.longitude) \($0.latitude)" }.joined(separator: ", ") + ")" }.joined(separator: ", ")
            + ")"
        return (try? reader.read(wkt: text)) != nil
    }

    /// A regular outline of `count` vertices of radius `size` about `center`, either way round.
    static func circle(_ center: (Double, Double), _ size: Double, count: Int, clockwise: Bool) -> [Coordinate] {
        closed(
            (0..<count).map { i in
                let angle = (clockwise ? -1.0 : 1.0) * 2 * Double.pi * Double(i) / Double(count)
                return (center.0 + size * cos(angle), center.1 + size * sin(angle))
            })
    }

    /// Lakes with islands: a star and one to four holes dropped at random, inside and apart (the
    /// usual case, proved), across the shore or each other, outside, nested, touching the shore
    /// at a vertex or sharing one with another hole. What is proved, GEOS accepts; a mutation
    /// that skips the holes' sides (or the pairs of edges of two rings) fails this.
    @Test(arguments: [61, 62, 63] as [UInt64])
    func polygonsWithHolesProvedOnlyWhereGEOSAccepts(_ seed: UInt64) {
        var random = SplitMix64(seed: seed)
        var tally = ProofTally()
        for round in 0..<400 {
            let shell = Self.star(&random, count: 16 + Int(random.next() % 48), jitter: 0.2)
            let center = (
                shell.map(\.longitude).reduce(0, +) / Double(shell.count), shell.map(\.latitude).reduce(0, +) / Double(shell.count)
            )
            let reach = shell.map {
                ((($0.longitude - center.0) * ($0.longitude - center.0) + ($0.latitude - center.1) * ($0.latitude - center.1))).squareRoot()
            }.max()!
            var rings = [shell]
            for _ in 0..<(1 + Int(random.next() % 4)) {
                // Mostly well inside; now and then at or beyond the shore, or large.
                let far = round % 5 == 0 ? 1.2 : 0.6
                let angle = random.unit() * 2 * Double.pi
                let distance = random.unit() * far * reach
                let size = reach * (round % 7 == 0 ? 0.5 : 0.05 + random.unit() * 0.15)
                rings.append(
                    Self.circle(
                        (center.0 + distance * cos(angle), center.1 + distance * sin(angle)), size, count: 5 + Int(random.next() % 12),
                        clockwise: random.unit() < 0.5))
            }
            switch round % 9 {
            case 1 where rings.count > 1:
                // A hole's vertex on a vertex of the shell.
                rings[1][0] = shell[Int(random.next() % UInt64(shell.count - 1))]
                rings[1][rings[1].count - 1] = rings[1][0]
            case 2 where rings.count > 2:
                // Two holes sharing a vertex.
                rings[2][0] = rings[1][1]
                rings[2][rings[2].count - 1] = rings[2][0]
            case 3 where rings.count > 1:
                // A hole in a hole.
                let inner = rings[1].dropLast()
                let cx = inner.map(\.longitude).reduce(0, +) / Double(inner.count)
                let cy = inner.map(\.latitude).reduce(0, +) / Double(inner.count)
                rings.append(Self.circle((cx, cy), 1e-4 * reach, count: 6, clockwise: false))
            default: break
            }
            tally.count(proved: RingSimplicity.isCertainlyValid(rings), geosAccepts: Self.geosAccepts(polygon: rings), "\(rings)")
        }
        tally.expectBothMet()
    }

    /// A lake with an island is proved; with the island on the shore, outside, or in another
    /// island, it goes to GEOS, which refuses it.
    @Test(
        arguments: [
            ("island", [((0.0, 0.0), 0.2)], true),
            ("two islands", [((-0.4, 0.0), 0.2), ((0.4, 0.0), 0.2)], true),
            ("across the shore", [((0.9, 0.0), 0.2)], false),
            ("outside", [((3.0, 0.0), 0.2)], false),
            ("nested", [((0.0, 0.0), 0.5), ((0.0, 0.0), 0.1)], false),
            ("overlapping", [((-0.1, 0.0), 0.2), ((0.1, 0.0), 0.2)], false),
        ] as [(String, [((Double, Double), Double)], Bool)])
    func aLakeAndItsIslands(_ name: String, _ islands: [((Double, Double), Double)], _ valid: Bool) {
        let rings =
            [Self.circle((0, 0), 1, count: 64, clockwise: false)] + islands.map { Self.circle($0.0, $0.1, count: 12, clockwise: true) }
        #expect(RingSimplicity.isCertainlyValid(rings) == valid, "\(name)")
        #expect(Self.geosAccepts(polygon: rings) == valid, "\(name)")
    }

    /// A comb: 10,000 long teeth over the same stretch of longitude, a simple ring whose every
    /// edge overlaps every other in x. The sweep stops at its budget and GEOS decides (valid).
    @Test func aCombIsLeftToGEOS() {
        var points: [(Double, Double)] = [(0, 0)]
        for tooth in 0..<10_000 {
            let y = Double(tooth) * 1e-4
            if tooth % 2 == 0 {
                points += [(1, y), (1, y + 1e-4)]
            } else {
                points += [(1e-3, y), (1e-3, y + 1e-4)]
            }
        }
        points += [(0, 1.0)]
        let ring = Self.closed(points)
        #expect(!RingSimplicity.isCertainlySimple(ring))
        #expect(Self.geosAccepts(ring))
    }
}
