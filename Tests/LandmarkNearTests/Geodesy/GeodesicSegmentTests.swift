import Foundation
import Testing

@_spi(Inlining) @testable import LandmarkNearCore
@_spi(Inlining) @testable import LandmarkNearGeodesy

/// `GeodesicSegment.nearestApproach` against the brute-force reference
/// (`GeodesyReference.nearest`), to the millimetre, and the chord bounds around it.
@Suite(.suiteTimeLimit) struct GeodesicSegmentTests {
    /// A family of seeded random cases: a segment from `a` to `b` and a point `p`.
    struct Scenario: CustomTestStringConvertible, Sendable {
        var name: String
        var seed: UInt64
        var cases: Int
        var make: @Sendable (inout SplitMix64) -> (a: Coordinate, b: Coordinate, p: Coordinate)
        var testDescription: String { name }
    }

    static let g = Geodesic.wgs84

    /// A uniform value in `range`.
    static func uniform(_ range: ClosedRange<Double>, _ random: inout SplitMix64) -> Double {
        range.lowerBound + (range.upperBound - range.lowerBound) * random.unit()
    }

    /// A segment from `a` of `length` along a random azimuth, and a point `offset` metres to
    /// either side of the point a random fraction along it (−20 % … 120 %).
    static func around(
        _ a: Coordinate, length: Double, offset: Double, _ random: inout SplitMix64
    ) -> (a: Coordinate, b: Coordinate, p: Coordinate) {
        let azimuth = uniform(-180...180, &random)
        let b = g.destination(from: a, azimuth: azimuth, distance: length)
        let line = g.line(from: a, azimuth: azimuth)
        let (x, heading) = line.position(at: length * uniform(-0.2...1.2, &random))
        let side: Double = random.unit() < 0.5 ? 90 : -90
        return (a, b, g.destination(from: x, azimuth: heading + side, distance: offset))
    }

    static func anywhere(_ random: inout SplitMix64, latitudes: ClosedRange<Double> = -90...90) -> Coordinate {
        Coordinate(latitude: uniform(latitudes, &random), longitude: uniform(-180...180, &random))
    }

    static let scenarios: [Scenario] = [
        Scenario(name: "short edges, points near", seed: 1, cases: 40) { r in
            around(anywhere(&r, latitudes: -80...80), length: uniform(10...200_000, &r), offset: uniform(0...50_000, &r), &r)
        },
        Scenario(name: "edges of 50-500 km at 60-85°, points within 5 km", seed: 2, cases: 40) { r in
            let a = Coordinate(latitude: uniform(60...85, &r) * (r.unit() < 0.5 ? 1 : -1), longitude: uniform(-180...180, &r))
            return around(a, length: uniform(50_000...500_000, &r), offset: uniform(0...5_000, &r), &r)
        },
        Scenario(name: "edges of 1,000-10,000 km, points within 3,000 km", seed: 3, cases: 30) { r in
            around(anywhere(&r), length: uniform(1_000_000...10_000_000, &r), offset: uniform(0...3_000_000, &r), &r)
        },
        Scenario(name: "across ±180°, longitudes beyond 180", seed: 4, cases: 30) { r in
            let a = Coordinate(latitude: uniform(-70...70, &r), longitude: uniform(170...180, &r))
            let b = Coordinate(latitude: a.latitude + uniform(-5...5, &r), longitude: uniform(180...195, &r))
            let p = Coordinate(latitude: a.latitude + uniform(-5...5, &r), longitude: uniform(-185 ... -170, &r))
            return (a, b, p)
        },
        Scenario(name: "at and near the poles", seed: 5, cases: 40) { r in
            let north: Double = r.unit() < 0.5 ? 1 : -1
            let a = Coordinate(latitude: north * (r.unit() < 0.3 ? 90 : uniform(80...90, &r)), longitude: uniform(-180...180, &r))
            let b = Coordinate(latitude: north * uniform(75...90, &r), longitude: uniform(-180...180, &r))
            let p =
                r.unit() < 0.2
                ? Coordinate(latitude: north * 90, longitude: uniform(-180...180, &r))
                : Coordinate(latitude: north * uniform(70...90, &r), longitude: uniform(-180...180, &r))
            return (a, b, p)
        },
        Scenario(name: "points near the antipode of the segment", seed: 6, cases: 30) { r in
            let (a, b, x) = around(anywhere(&r), length: uniform(1_000...5_000_000, &r), offset: 0, &r)
            let antipode = Coordinate(latitude: -x.latitude, longitude: x.longitude + 180)
            return (a, b, g.destination(from: antipode, azimuth: uniform(-180...180, &r), distance: uniform(0...500_000, &r)))
        },
        Scenario(name: "far points, 3,000-9,000 km and 11,000-19,000 km", seed: 7, cases: 30) { r in
            let (a, b, x) = around(anywhere(&r), length: uniform(1_000...3_000_000, &r), offset: 0, &r)
            let far = r.unit() < 0.5 ? uniform(3_000_000...9_000_000, &r) : uniform(11_000_000...19_000_000, &r)
            return (a, b, g.destination(from: x, azimuth: uniform(-180...180, &r), distance: far))
        },
    ]

    @Test(arguments: scenarios)
    func nearestApproachMatchesTheReference(_ scenario: Scenario) {
        var random = SplitMix64(seed: scenario.seed)
        for _ in 0..<scenario.cases {
            let (a, b, p) = scenario.make(&random)
            let segment = GeodesicSegment(from: a, to: b)
            let approach = segment.nearestApproach(to: p)
            let reference = GeodesyReference.nearest(from: p, edges: [(a, b)])
            #expect(abs(approach.distance - reference.distance) <= 1e-3, "\(a) → \(b), \(p): \(approach.distance) vs \(reference.distance)")
            // The nearest point is on the segment, at its distance.
            #expect(abs(Self.g.distance(from: approach.point, to: p) - approach.distance) <= 1e-6)
            #expect(Self.g.distance(from: approach.point, to: segment.point(atDistance: approach.distanceAlong)) <= 1e-6)
            #expect((0...1).contains(approach.fraction))
            let bounds = segment.edge.distanceBounds(from: EarthCenteredPoint(p))
            #expect(bounds.lower <= reference.distance && reference.distance <= bounds.upper, "\(bounds) vs \(reference.distance)")
        }
    }

    /// On a vertex, on the segment, and across ±180° written both ways: distance 0 and the
    /// point's own place along the segment.
    @Test(arguments: [
        (60.0, 10.0, 60.0, 11.8), (10.0, 179.5, 11.0, 180.5), (10.0, 179.5, 11.0, -179.5),
        (-89.0, 0.0, -90.0, 0.0), (0.0, 0.0, 0.0, 170.0), (45.0, -120.0, -45.0, 60.5),
    ])
    func pointsOnTheSegmentAreAtDistanceZero(_ c: (Double, Double, Double, Double)) {
        let a = Coordinate(latitude: c.0, longitude: c.1)
        let b = Coordinate(latitude: c.2, longitude: c.3)
        let segment = GeodesicSegment(from: a, to: b)
        #expect(segment.nearestApproach(to: a).distance == 0)
        #expect(segment.nearestApproach(to: a).fraction == 0)
        #expect(segment.nearestApproach(to: b).distance == 0)
        #expect(segment.nearestApproach(to: b).fraction == 1)
        var random = SplitMix64(seed: 8)
        for _ in 0..<20 {
            let along = segment.length * random.unit()
            let approach = segment.nearestApproach(to: segment.point(atDistance: along))
            #expect(approach.distance <= 1e-6)
            #expect(abs(approach.distanceAlong - along) <= 1e-6)
        }
    }

    /// A 100 km edge along 60°N bulges north of the parallel (340 m at its middle); from a
    /// point on the parallel the distance is that bulge, not 0.
    @Test func edgeAtSixtyNorthBulges() {
        let segment = GeodesicSegment(from: Coordinate(latitude: 60, longitude: 10), to: Coordinate(latitude: 60, longitude: 11.8))
        let p = Coordinate(latitude: 60, longitude: 10.9)
        let approach = segment.nearestApproach(to: p)
        let reference = GeodesyReference.nearest(from: p, edges: [(segment.start, segment.end)])
        #expect(abs(approach.distance - reference.distance) <= 1e-3)
        #expect(abs(approach.distance - 340) < 10, "\(approach.distance)")
        #expect(abs(approach.fraction - 0.5) < 1e-6)
    }

    /// From a pole every point of the equator is a quarter meridian away: the band where f is
    /// flat (`SegmentSearch`).
    @Test func fromThePoleToTheEquatorEveryPointIsNearest() {
        let quarterMeridian = 10_001_965.729_312_5
        for (from, to) in [(0.0, 10.0), (-30.0, 100.0), (120.0, -70.0)] {
            let segment = GeodesicSegment(from: Coordinate(latitude: 0, longitude: from), to: Coordinate(latitude: 0, longitude: to))
            for pole in [90.0, -90.0] {
                let approach = segment.nearestApproach(to: Coordinate(latitude: pole, longitude: 33))
                #expect(abs(approach.distance - quarterMeridian) <= 1e-3, "\(approach.distance)")
            }
        }
    }

    /// The closest approach of a landmark to the geodesic between two fixes, and when (the
    /// fraction along, at constant speed): the reference's place, where the minimum is sharp.
    @Test func closestApproachBetweenFixesGivesTheTimeFraction() {
        var random = SplitMix64(seed: 9)
        for _ in 0..<30 {
            let (a, b, q) = Self.around(
                Self.anywhere(&random, latitudes: -85...85), length: Self.uniform(100...50_000, &random),
                offset: Self.uniform(0...2_000, &random), &random)
            let segment = GeodesicSegment(from: a, to: b)
            let approach = segment.nearestApproach(to: q)
            let reference = GeodesyReference.nearest(from: q, edges: [(a, b)])
            #expect(abs(approach.distance - reference.distance) <= 1e-3)
            // The distance grows like x²/(2d) off the minimum: a millimetre of it is ≤ 2 m of place.
            #expect(
                abs(approach.fraction - reference.along / segment.length) * segment.length <= 2,
                "\(approach.fraction) vs \(reference.along / segment.length)")
        }
    }
}
