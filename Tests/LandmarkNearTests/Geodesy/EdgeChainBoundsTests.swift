import Foundation
import Testing

@_spi(Inlining) @testable import LandmarkNearCore
@_spi(Inlining) @testable import LandmarkNearGeodesy

/// The chain bounds that decide most fixes near a place skip runs of edges by their balls
/// (`EdgeBlock`), and a small ring answers "outside" from its ball alone: both must give what
/// the plain scan over every edge gives, bit for bit, on rings and lines long enough to have
/// runs, from points near, on, inside and far.
@Suite(.suiteTimeLimit) struct EdgeChainBoundsTests {
    static let g = Geodesic.wgs84

    /// The bounds by a scan of every edge, as `EdgeChain.bounds` is documented to be.
    static func plainBounds(_ chain: EdgeChain, _ point: EarthCenteredPoint) -> (lower: Double, upper: Double) {
        var lower = Double.infinity
        var nearestChord = Double.infinity
        for edge in chain.edges {
            let d = edge.chordSegmentDistance(from: point)
            lower = min(lower, d - edge.bulge)
            nearestChord = min(nearestChord, d + edge.bulge, point.chord(to: edge.startPoint))
        }
        return (max(0, lower - GeodesicBounds.margin), GeodesicBounds.upper(chord: nearestChord))
    }

    /// The least over every edge of its exact distance.
    static func plainDistance(_ chain: EdgeChain, _ p: Coordinate, _ point: EarthCenteredPoint) -> Double {
        chain.edges.map { GeodesicSegment($0, geodesic: g).nearestApproach(to: p, point).distance }.min()!
    }

    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var seed: UInt64
        var latitudes: ClosedRange<Double>
        var sizes: ClosedRange<Double>
        var vertices: ClosedRange<Int>
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "parks, 64-512 vertices", seed: 21, latitudes: -60...60, sizes: 500...20_000, vertices: 64...512),
        Case(name: "long edges at high latitude", seed: 22, latitudes: 60...85, sizes: 300_000...1_500_000, vertices: 32...80),
        Case(name: "across ±180°", seed: 23, latitudes: -50...50, sizes: 2_000...200_000, vertices: 33...200),
        Case(name: "around a pole", seed: 24, latitudes: 89.9...90, sizes: 200_000...2_000_000, vertices: 40...120),
    ]

    @Test(arguments: cases)
    func blocksAndBallsGiveThePlainScansAnswers(_ c: Case) {
        var random = SplitMix64(seed: c.seed)
        for _ in 0..<5 {
            let north = random.unit() < 0.5
            let latitude = GeodesicRingTests.uniform(c.latitudes, &random) * (north ? 1 : -1)
            let center = Coordinate(latitude: latitude, longitude: GeodesicRingTests.uniform(-180...180, &random))
            let size = GeodesicRingTests.uniform(c.sizes, &random)
            let count = c.vertices.lowerBound + Int(random.next() % UInt64(c.vertices.count))
            let shell = GeodesicRingTests.star(around: center, count: count, radii: 0.5 * size...size, &random)
            let hole = GeodesicRingTests.star(around: center, count: count / 2 + 3, radii: 0.1 * size...0.3 * size, &random)
            let polygon = GeodesicPolygon(shell: shell, holes: [hole])!
            let line = GeodesicLineString(Array(shell.prefix(count - 3)))!
            let shape = GeodesicShape(.areas([[shell, hole]]))!
            #expect(!polygon.shell.chain.blocks.isEmpty)
            for i in 0..<200 {
                let p: Coordinate
                switch i % 4 {
                case 0: p = shell[Int(random.next() % UInt64(shell.count))]
                case 1:
                    let edge = (shell[i % shell.count], shell[(i + 1) % shell.count])
                    p = GeodesicRingTests.offEdge(edge, &random)
                default:
                    p = Self.g.destination(
                        from: center, azimuth: GeodesicRingTests.uniform(-180...180, &random), distance: 3 * size * random.unit())
                }
                let point = EarthCenteredPoint(p)
                for ring in [polygon.shell] + polygon.holes {
                    #expect(ring.locate(p, point) == ring.locate(p), "\(c.name): \(p)")
                    let blocked = ring.chain.bounds(from: point)
                    let plain = Self.plainBounds(ring.chain, point)
                    #expect(blocked.lower == plain.lower && blocked.upper == plain.upper, "\(c.name): \(p) \(blocked) vs \(plain)")
                    if i % 8 < 2 {
                        let exact = ring.chain.distance(from: p, point, below: .infinity)
                        #expect(exact == Self.plainDistance(ring.chain, p, point), "\(c.name): \(p)")
                    }
                }
                let lineBounds = line.chain.bounds(from: point)
                let plainLine = Self.plainBounds(line.chain, point)
                #expect(lineBounds.lower == plainLine.lower && lineBounds.upper == plainLine.upper, "\(c.name): line \(p)")
                // And the place's bounds hold its exact distance.
                let bounds = shape.distanceBounds(from: p)
                let exact = shape.distance(from: p)
                #expect(bounds.lower <= exact && exact <= bounds.upper, "\(c.name): \(p) \(bounds) vs \(exact)")
            }
        }
    }

    /// A place's cap takes its vertices' points from its edges (made once): the same centre and
    /// reach, bit for bit, as from every position made anew, also for rings written beyond
    /// ±180° (which the ring reduces) and for lines.
    @Test(arguments: [false, true])
    func aPlacesCapIsThatOfItsPositions(_ beyond180: Bool) throws {
        var random = SplitMix64(seed: beyond180 ? 31 : 32)
        for _ in 0..<20 {
            let center = Coordinate(latitude: GeodesicRingTests.uniform(-70...70, &random), longitude: beyond180 ? 179.9 : 10)
            var ring = GeodesicRingTests.star(around: center, count: 40, radii: 5_000...30_000, &random)
            if beyond180 {
                ring = ring.map { Coordinate(latitude: $0.latitude, longitude: $0.longitude < 0 ? $0.longitude + 360 : $0.longitude) }
            }
            for shape in [LandmarkShape.areas([[ring + [ring[0]]]]), .lines([ring, Array(ring.prefix(7))])] {
                let made = try #require(GeodesicShape(shape))
                let points = shape.allPositions.map(EarthCenteredPoint.init)
                var sum = EarthCenteredPoint(x: 0, y: 0, z: 0)
                for point in points {
                    sum.x += point.x
                    sum.y += point.y
                    sum.z += point.z
                }
                let horizontal = (sum.x * sum.x + sum.y * sum.y).squareRoot()
                let expected = Coordinate(
                    latitude: atan2(sum.z, horizontal * (1 - EllipsoidConstants.eccentricitySquared)) * 180 / .pi,
                    longitude: atan2(sum.y, sum.x) * 180 / .pi)
                #expect(made.center.latitude.bitPattern == expected.latitude.bitPattern)
                #expect(made.center.longitude.bitPattern == expected.longitude.bitPattern)
                let centerPoint = EarthCenteredPoint(expected)
                var (farthest, longest) = (0.0, 0.0)
                for (i, point) in points.enumerated() {
                    farthest = max(farthest, centerPoint.chord(to: point))
                    if i > 0 { longest = max(longest, points[i - 1].chord(to: point)) }
                }
                #expect(made.reach == GeodesicBounds.upper(chord: farthest) + GeodesicBounds.upper(chord: longest) / 2 + 0.001)
            }
        }
    }
}
