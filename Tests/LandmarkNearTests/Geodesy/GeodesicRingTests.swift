import Foundation
import Testing

@_spi(Inlining) @testable import LandmarkNearCore
@_spi(Inlining) @testable import LandmarkNearGeodesy

/// `GeodesicRing` / `GeodesicPolygon` containment and distance against the brute-force
/// references (`GeodesyReference`): rings of every size, around and through the poles, across
/// ±180°, with holes.
@Suite(.suiteTimeLimit) struct GeodesicRingTests {
    static let g = Geodesic.wgs84

    static func uniform(_ range: ClosedRange<Double>, _ random: inout SplitMix64) -> Double {
        range.lowerBound + (range.upperBound - range.lowerBound) * random.unit()
    }

    /// A simple ring of `count` vertices around `center`, at increasing azimuths (a fan of
    /// triangles that do not overlap), `radii` metres out, in either order.
    static func star(
        around center: Coordinate, count: Int, radii: ClosedRange<Double>, _ random: inout SplitMix64
    ) -> [Coordinate] {
        let step = 360 / Double(count)
        var ring = (0..<count).map { i in
            g.destination(
                from: center, azimuth: Double(i) * step + uniform(0...0.8 * step, &random), distance: uniform(radii, &random))
        }
        if random.unit() < 0.5 { ring.reverse() }
        return ring
    }

    /// A family of seeded random rings (shell and holes) and points to place.
    struct Scenario: CustomTestStringConvertible, Sendable {
        var name: String
        var seed: UInt64
        var rings: Int
        var points: Int
        /// Shell, holes, and a point generator.
        var make: @Sendable (inout SplitMix64) -> (shell: [Coordinate], holes: [[Coordinate]], center: Coordinate, reach: Double)
        var testDescription: String { name }
    }

    static let scenarios: [Scenario] = [
        Scenario(name: "small rings, 3-40 vertices", seed: 11, rings: 6, points: 60) { r in
            let center = Coordinate(latitude: uniform(-70...70, &r), longitude: uniform(-180...180, &r))
            let size = uniform(1_000...50_000, &r)
            return (star(around: center, count: 3 + Int(r.next() % 38), radii: 0.3 * size...size, &r), [], center, 1.5 * size)
        },
        Scenario(name: "long edges at 55-85°", seed: 12, rings: 6, points: 60) { r in
            let center = Coordinate(latitude: uniform(55...85, &r) * (r.unit() < 0.5 ? 1 : -1), longitude: uniform(-180...180, &r))
            let size = uniform(200_000...2_000_000, &r)
            return (star(around: center, count: 5 + Int(r.next() % 8), radii: 0.5 * size...size, &r), [], center, 1.3 * size)
        },
        Scenario(name: "around a pole, either way", seed: 13, rings: 6, points: 60) { r in
            let pole = Coordinate(latitude: r.unit() < 0.5 ? 90 : -90, longitude: 0)
            let size = uniform(300_000...3_000_000, &r)
            return (star(around: pole, count: 6 + Int(r.next() % 30), radii: 0.6 * size...size, &r), [], pole, 1.3 * size)
        },
        Scenario(name: "across ±180°, longitudes beyond 180", seed: 14, rings: 6, points: 60) { r in
            let center = Coordinate(latitude: uniform(-60...60, &r), longitude: 180)
            let size = uniform(10_000...1_000_000, &r)
            let ring = star(around: center, count: 4 + Int(r.next() % 12), radii: 0.4 * size...size, &r).map {
                Coordinate(latitude: $0.latitude, longitude: $0.longitude < 0 ? $0.longitude + 360 : $0.longitude)
            }
            return (ring, [], center, 1.5 * size)
        },
        Scenario(name: "big rings, up to 8,000 km", seed: 15, rings: 4, points: 40) { r in
            let center = Coordinate(latitude: uniform(-90...90, &r), longitude: uniform(-180...180, &r))
            let size = uniform(3_000_000...8_000_000, &r)
            return (star(around: center, count: 8 + Int(r.next() % 20), radii: 0.7 * size...size, &r), [], center, 1.2 * size)
        },
        // Rings long enough to be counted in runs of edges (`EdgeBlock`), whose longitudes pass
        // a point's meridian whole or not.
        Scenario(name: "long outlines, 40-400 vertices", seed: 17, rings: 3, points: 40) { r in
            let center = Coordinate(latitude: uniform(-70...70, &r), longitude: uniform(-180...180, &r))
            let size = uniform(1_000...200_000, &r)
            return (star(around: center, count: 40 + Int(r.next() % 360), radii: 0.3 * size...size, &r), [], center, 1.5 * size)
        },
        Scenario(name: "long outlines across ±180° or around a pole", seed: 18, rings: 4, points: 40) { r in
            let pole = r.unit() < 0.5
            let center =
                pole
                ? Coordinate(latitude: r.unit() < 0.5 ? 90 : -90, longitude: 0)
                : Coordinate(latitude: uniform(-60...60, &r), longitude: 180)
            let size = uniform(10_000...1_000_000, &r)
            let ring = star(around: center, count: 40 + Int(r.next() % 160), radii: 0.6 * size...size, &r).map {
                Coordinate(latitude: $0.latitude, longitude: !pole && $0.longitude < 0 ? $0.longitude + 360 : $0.longitude)
            }
            return (ring, [], center, 1.3 * size)
        },
        Scenario(name: "with holes", seed: 16, rings: 6, points: 60) { r in
            let center = Coordinate(latitude: uniform(-80...80, &r), longitude: uniform(-180...180, &r))
            let size = uniform(5_000...500_000, &r)
            let shell = star(around: center, count: 6 + Int(r.next() % 20), radii: 0.8 * size...size, &r)
            let holes = [0.0, 180].map { azimuth in
                star(
                    around: g.destination(from: center, azimuth: azimuth + uniform(0...90, &r), distance: 0.4 * size),
                    count: 3 + Int(r.next() % 10), radii: 0.05 * size...0.3 * size, &r)
            }
            return (shell, holes, center, 1.2 * size)
        },
    ]

    @Test(arguments: scenarios)
    func containmentAndDistanceMatchTheReference(_ scenario: Scenario) {
        var random = SplitMix64(seed: scenario.seed)
        for _ in 0..<scenario.rings {
            let (shell, holes, center, reach) = scenario.make(&random)
            let polygon = GeodesicPolygon(shell: shell, holes: holes)!
            let references = ([shell] + holes).map(GeodesyReference.Ring.init)
            let edges = ([shell] + holes).flatMap { ring in ring.indices.map { (ring[$0], ring[($0 + 1) % ring.count]) } }
            for i in 0..<scenario.points {
                // Every fourth point a few centimetres to 20 m off an edge, to either side.
                let p =
                    i % 4 == 1
                    ? Self.offEdge(edges[Int(random.next() % UInt64(edges.count))], &random)
                    : Self.g.destination(
                        from: center, azimuth: Self.uniform(-180...180, &random), distance: reach * random.unit().squareRoot())
                let near = i % 4 == 1 || references.contains { $0.sampleDistance(p) < 10_000 }
                let nearest = near || i % 6 == 0 ? GeodesyReference.nearest(from: p, edges: edges).distance : nil
                let distance = polygon.distance(from: p)
                if let nearest, nearest < 0.01 {
                    #expect(distance <= 0.011)
                    continue
                }
                let inside = references[0].contains(p) && !references.dropFirst().contains { $0.contains(p) }
                #expect(polygon.contains(p) == inside, "\(scenario.name): \(p) in \(shell)")
                if inside {
                    #expect(distance == 0)
                } else if let nearest {
                    #expect(abs(distance - nearest) <= 1e-3, "\(p): \(distance) vs \(nearest)")
                }
            }
        }
    }

    /// Points on the meridians of a long ring's vertices (where a run of edges reaches a
    /// point's meridian exactly, at its west or east end), north and south of the vertex, inside
    /// and outside: the count, passing runs whole, agrees with the reference.
    @Test func pointsOnTheMeridiansOfALongRingsVertices() {
        var random = SplitMix64(seed: 19)
        let center = Coordinate(latitude: 47, longitude: 8)
        let ring = Self.star(around: center, count: 200, radii: 20_000...60_000, &random)
        let polygon = GeodesicPolygon(shell: ring)!
        let reference = GeodesyReference.Ring(ring)
        let edges = ring.indices.map { (ring[$0], ring[($0 + 1) % ring.count]) }
        var inside = 0
        for vertex in ring.enumerated().filter({ $0.offset % 3 == 0 }).map(\.element) {
            for shift in [-0.4, -0.1, -0.01, 0.01, 0.1, 0.4] {
                let p = Coordinate(latitude: vertex.latitude + shift, longitude: vertex.longitude)
                if GeodesyReference.nearest(from: p, edges: edges).distance < 0.01 { continue }
                let expected = reference.contains(p)
                if expected { inside += 1 }
                #expect(polygon.contains(p) == expected, "\(p)")
            }
        }
        #expect(inside > 20)
    }

    /// A point 2 cm to 20 m (log-uniform) to either side of a random point of the edge.
    static func offEdge(_ edge: (Coordinate, Coordinate), _ random: inout SplitMix64) -> Coordinate {
        let line = g.line(from: edge.0, to: edge.1)
        let (x, heading) = line.position(at: line.length * random.unit())
        let offset = pow(10, uniform(-1.7...1.3, &random))
        return g.destination(from: x, azimuth: heading + (random.unit() < 0.5 ? 90 : -90), distance: offset)
    }

    /// A ring around a pole, written with vertices around it either way: the pole and the
    /// points near it are inside, the region the ring bounds is the cap.
    @Test(arguments: [90.0, -90.0], [false, true])
    func ringAroundAPoleEitherWayHoldsThePole(_ pole: Double, _ reversed: Bool) {
        var ring = stride(from: -180.0, to: 180, by: 15).map { Coordinate(latitude: pole * 0.8, longitude: $0) }
        if reversed { ring.reverse() }
        let polygon = GeodesicPolygon(shell: ring)!
        #expect(polygon.contains(Coordinate(latitude: pole, longitude: 0)))
        #expect(polygon.contains(Coordinate(latitude: pole * 0.9, longitude: 37)))
        #expect(!polygon.contains(Coordinate(latitude: pole * 0.5, longitude: 37)))
        #expect(!polygon.contains(Coordinate(latitude: -pole, longitude: 0)))
        // Midway between two vertices on their parallel: the edge bulges poleward of it (16 km).
        let between = Coordinate(latitude: pole * 0.8, longitude: 7.5)
        #expect(!polygon.contains(between))
        let edges = ring.indices.map { (ring[$0], ring[($0 + 1) % ring.count]) }
        let reference = GeodesyReference.nearest(from: between, edges: edges)
        #expect(reference.distance > 10_000)
        #expect(abs(polygon.distance(from: between) - reference.distance) <= 1e-3)
        let outside = Coordinate(latitude: pole * 0.7, longitude: 7.5)
        let expected = GeodesyReference.nearest(from: outside, edges: edges)
        #expect(abs(polygon.distance(from: outside) - expected.distance) <= 1e-3)
    }

    /// Antarctica as Natural Earth writes it: the coast from −180° to 180°, then down 180° to
    /// the South Pole and up −180° back (a slit that the ring runs down and up), either way.
    @Test(arguments: [false, true])
    func naturalEarthAntarcticaHoldsTheSouthPole(_ reversed: Bool) {
        var random = SplitMix64(seed: 17)
        var ring = stride(from: -180.0, through: 180, by: 10).map {
            Coordinate(latitude: Self.uniform(-78 ... -65, &random), longitude: $0)
        }
        ring[ring.count - 1].latitude = ring[0].latitude
        ring += [Coordinate(latitude: -90, longitude: 180), Coordinate(latitude: -90, longitude: -180), ring[0]]
        if reversed { ring.reverse() }
        let antarctica = GeodesicPolygon(shell: ring)!
        #expect(antarctica.contains(Coordinate(latitude: -90, longitude: 0)))
        #expect(antarctica.contains(Coordinate(latitude: -85, longitude: 180)))
        #expect(antarctica.contains(Coordinate(latitude: -85, longitude: -179.9)))
        #expect(antarctica.contains(Coordinate(latitude: -80, longitude: 12)))
        #expect(!antarctica.contains(Coordinate(latitude: -60, longitude: 12)))
        #expect(!antarctica.contains(Coordinate(latitude: 90, longitude: 12)))
        #expect(antarctica.shell.area() < 3e13)
        // Against the reference, with the coast (the slit retraces itself: no region).
        let coast = Array(ring.filter { $0.latitude != -90 }.dropLast())
        let reference = GeodesyReference.Ring(coast)
        let coastEdges = coast.indices.map { (coast[$0], coast[($0 + 1) % coast.count]) }
        for _ in 0..<60 {
            let p = Coordinate(latitude: Self.uniform(-90 ... -55, &random), longitude: Self.uniform(-180...180, &random))
            if reference.sampleDistance(p) < 10_000, GeodesyReference.nearest(from: p, edges: coastEdges).distance < 0.01 { continue }
            let inside = reference.contains(p)
            #expect(antarctica.contains(p) == inside, "\(p)")
            if !inside, random.unit() < 0.3 {
                let nearest = GeodesyReference.nearest(from: p, edges: coastEdges).distance
                #expect(abs(antarctica.distance(from: p) - nearest) <= 1e-3)
            }
        }
    }

    /// Rings with an edge over the North Pole (the sweep of 180° there), with a vertex at it,
    /// or around it with a vertex on it: the pole is on the boundary, and points around it are
    /// where the reference puts them.
    @Test(arguments: [
        [(80.0, 0.0), (80, 180), (70, 90)],
        [(80.0, 0.0), (70, 90), (80, 180)],
        [(80.0, 0.0), (80, 90), (90, 45)],
        [(80.0, 10.0), (90, 0), (80, -10), (60, 0)],
        [(75.0, 0.0), (75, 120), (90, 33), (75, -120)],
        [(85.0, 30.0), (84, -150), (60, -100), (55, 0), (60, 80)],
        [(85.0, 30.0), (60, 80), (55, 0), (60, -100), (84, -150)],
    ])
    func ringsThroughAndTouchingTheNorthPole(_ vertices: [(Double, Double)]) {
        let ring = vertices.map { Coordinate(latitude: $0.0, longitude: $0.1) }
        let polygon = GeodesicPolygon(shell: ring)!
        #expect(polygon.contains(Coordinate(latitude: 90, longitude: 17)))
        #expect(polygon.distance(from: Coordinate(latitude: 90, longitude: 17)) == 0)
        let reference = GeodesyReference.Ring(ring)
        let edges = ring.indices.map { (ring[$0], ring[($0 + 1) % ring.count]) }
        var random = SplitMix64(seed: 20)
        var inside = 0
        for i in 0..<80 {
            // Half of the points within 300 km of a vertex.
            let p =
                i % 2 == 0
                ? Self.g.destination(
                    from: ring[i / 2 % ring.count], azimuth: Self.uniform(-180...180, &random), distance: Self.uniform(0...300_000, &random)
                )
                : Coordinate(latitude: Self.uniform(55...90, &random), longitude: Self.uniform(-180...180, &random))
            let nearest =
                reference.sampleDistance(p) < 10_000 || i % 4 == 1 ? GeodesyReference.nearest(from: p, edges: edges).distance : nil
            if let nearest, nearest <= 0.01 { continue }
            let expected = reference.contains(p)
            #expect(polygon.contains(p) == expected, "\(p)")
            if let nearest {
                #expect(abs(polygon.distance(from: p) - (expected ? 0 : nearest)) <= 1e-3)
            }
            if expected { inside += 1 }
        }
        #expect(inside > 0)
    }

    /// A ring along 10°S around the globe bounds the southern cap, whichever way it runs.
    @Test(arguments: [false, true])
    func ringAroundTheGlobeBoundsTheSmallerCap(_ reversed: Bool) {
        var ring = stride(from: 0.0, to: 360, by: 20).map { Coordinate(latitude: -10, longitude: $0) }
        if reversed { ring.reverse() }
        let polygon = GeodesicPolygon(shell: ring)!
        #expect(polygon.contains(Coordinate(latitude: -90, longitude: 0)))
        #expect(polygon.contains(Coordinate(latitude: -30, longitude: 100)))
        #expect(!polygon.contains(Coordinate(latitude: 90, longitude: 0)))
        #expect(!polygon.contains(Coordinate(latitude: 0, longitude: 100)))
    }

    /// Written with longitudes beyond 180 (179 → 181), the ring is the small box across ±180°.
    @Test func ringAcrossTheAntimeridianWrittenBeyond180() {
        let ring = [(-16.0, 178.0), (-16, 182), (-20, 182), (-20, 178)].map { Coordinate(latitude: $0.0, longitude: $0.1) }
        let polygon = GeodesicPolygon(shell: ring)!
        #expect(polygon.contains(Coordinate(latitude: -18, longitude: -179)))
        #expect(polygon.contains(Coordinate(latitude: -18, longitude: 179)))
        #expect(polygon.contains(Coordinate(latitude: -18, longitude: 180)))
        #expect(polygon.contains(Coordinate(latitude: -18, longitude: -180)))
        #expect(!polygon.contains(Coordinate(latitude: -18, longitude: 177)))
        #expect(!polygon.contains(Coordinate(latitude: -18, longitude: -177)))
        #expect(polygon.shell.area() < 3e11)
    }

    /// Vertices and points along the edges are on the boundary: in the area, at distance 0;
    /// points on P's meridian through a vertex are counted once.
    @Test func pointsOnTheRingAreInTheArea() {
        var random = SplitMix64(seed: 18)
        for _ in 0..<10 {
            let center = Coordinate(latitude: Self.uniform(-80...80, &random), longitude: Self.uniform(-180...180, &random))
            let ring = Self.star(around: center, count: 5 + Int(random.next() % 10), radii: 2_000...200_000, &random)
            let polygon = GeodesicPolygon(shell: ring)!
            let reference = GeodesyReference.Ring(ring)
            for (i, vertex) in ring.enumerated() {
                #expect(polygon.contains(vertex))
                #expect(polygon.distance(from: vertex) == 0)
                let segment = GeodesicSegment(from: vertex, to: ring[(i + 1) % ring.count])
                let onEdge = segment.point(atDistance: segment.length * random.unit())
                #expect(polygon.distance(from: onEdge) <= 1e-6)
                #expect(polygon.contains(onEdge), "\(onEdge)")
                // Straight north and south of the vertex: the meridian through it.
                for offset in [-0.01, 0.01] {
                    let p = Coordinate(latitude: vertex.latitude + offset, longitude: vertex.longitude)
                    #expect(polygon.contains(p) == reference.contains(p), "\(p)")
                }
            }
        }
    }

    /// MultiPolygon, LineString and MultiLineString distances against the reference.
    @Test func linesAndMultiPolygonsMatchTheReference() {
        var random = SplitMix64(seed: 19)
        for _ in 0..<8 {
            let lines = (0..<3).map { _ in
                let start = Coordinate(latitude: Self.uniform(-85...85, &random), longitude: Self.uniform(-180...180, &random))
                return (0..<(2 + Int(random.next() % 6))).reduce(into: [start]) { line, _ in
                    line.append(
                        Self.g.destination(
                            from: line.last!, azimuth: Self.uniform(-180...180, &random), distance: Self.uniform(100...800_000, &random)))
                }
            }
            let multi = GeodesicMultiLineString(lines.map { GeodesicLineString($0)! })
            let areas = lines.map { GeodesicPolygon(shell: Self.star(around: $0[0], count: 5, radii: 1_000...100_000, &random))! }
            let multiPolygon = GeodesicMultiPolygon(areas)
            let lineEdges = lines.flatMap { line in (1..<line.count).map { (line[$0 - 1], line[$0]) } }
            let areaEdges = areas.flatMap { area in area.shell.edges.map { ($0.start, $0.end) } }
            for _ in 0..<5 {
                let p = Self.g.destination(
                    from: lines[0][0], azimuth: Self.uniform(-180...180, &random), distance: Self.uniform(0...3_000_000, &random))
                let lineReference = GeodesyReference.nearest(from: p, edges: lineEdges).distance
                #expect(abs(multi.distance(from: p) - lineReference) <= 1e-3)
                #expect(
                    abs(
                        GeodesicLineString(lines[0])!.distance(from: p)
                            - GeodesyReference.nearest(from: p, edges: Array(lineEdges.prefix(lines[0].count - 1))).distance) <= 1e-3)
                let inside = areas.contains { $0.contains(p) }
                let areaReference = inside ? 0 : GeodesyReference.nearest(from: p, edges: areaEdges).distance
                #expect(abs(multiPolygon.distance(from: p) - areaReference) <= 1e-3)
            }
        }
    }
}
