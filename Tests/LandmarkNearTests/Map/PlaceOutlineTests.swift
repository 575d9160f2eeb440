import Foundation
import Testing

@_spi(Inlining) @testable import LandmarkNearCore
@_spi(Inlining) @testable import LandmarkNearGeodesy
@testable import LandmarkNearOutputs

/// Places drawn with their radius outline (SPEC 14: the outline within 0.1 % of R): every
/// vertex at the exact distance R from the place (`GeodesicShape.distance(from:)`), every edge's
/// midpoint too, points just inside R inside the drawn outline and points just beyond it
/// outside; the GeoJSON valid (split at ±180°, counterclockwise exteriors, GEOS-valid).
@Suite(.suiteTimeLimit) struct PlaceOutlineTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var shape: LandmarkShape
        var radius: Double
        /// Polygons and holes the outline has (after cutting at ±180°).
        var polygons: Int
        var holes: Int
        var testDescription: String { "\(name), R = \(radius) m" }
    }

    private static func c(_ lat: Double, _ lon: Double) -> Coordinate { Coordinate(latitude: lat, longitude: lon) }

    /// A closed ring from (lat, lon) pairs.
    private static func ring(_ points: [(Double, Double)]) -> [Coordinate] {
        let ring = points.map { c($0.0, $0.1) }
        return ring + [ring[0]]
    }

    static let park = ring([(34.000, -116.200), (34.000, -116.195), (34.004, -116.195), (34.004, -116.200)])
    /// A lake with an island: a 4 km square and a 1.2 km hole.
    static let lake: [[Coordinate]] = [
        ring([(48.60, -113.60), (48.60, -113.55), (48.64, -113.55), (48.64, -113.60)]),
        ring([(48.615, -113.583), (48.625, -113.583), (48.625, -113.567), (48.615, -113.567)]),
    ]
    /// A 120 km trail that zigzags north (Chilkoot-like).
    static let trail: [Coordinate] = (0...24).map { i in
        let zig: Double = i % 2 == 0 ? 0 : 0.08
        return c(59.5 + Double(i) * 0.04, -135.3 + zig + Double(i) * 0.01)
    }
    static let neighbour = ring([(34.010, -116.200), (34.010, -116.190), (34.012, -116.190), (34.012, -116.200)])
    /// A reef written across ±180° (longitudes beyond 180).
    static let reef = ring([(-10.00, 179.95), (-10.00, 180.05), (-9.95, 180.05), (-9.95, 179.95)])
    /// An ice shelf around the North Pole, along 85°N.
    static let shelf: [Coordinate] = (0...36).map { k in
        let wobble: Double = k % 2 == 0 ? 0 : 0.3
        return c(85 + wobble, Double(k % 36) * 10 - 180)
    }
    /// Antarctica-like: along 80°S with a wobble, around the South Pole.
    static let antarctic: [Coordinate] = (0...72).map { k in c(-80 + 0.5 * sin(Double(k % 72) * 0.7), Double(k % 72) * 5 - 180) }
    /// A trail that comes back to where it began: its outline has a hole.
    static let loop = [c(46.00, 7.00), c(46.00, 7.03), c(46.02, 7.03), c(46.02, 7.00), c(46.00, 7.00)]
    static let crossing = [c(-16.8, 179.7), c(-16.7, -179.9), c(-16.5, -179.6)]

    static let cases: [Case] = [
        Case(name: "small park", shape: .areas([[park]]), radius: 100, polygons: 1, holes: 0),
        Case(name: "small park", shape: .areas([[park]]), radius: 1, polygons: 1, holes: 0),
        Case(name: "small park", shape: .areas([[park]]), radius: 0.05, polygons: 1, holes: 0),
        Case(name: "lake with an island", shape: .areas([lake]), radius: 300, polygons: 1, holes: 1),
        Case(name: "lake with an island", shape: .areas([lake]), radius: 800, polygons: 1, holes: 0),
        Case(name: "long trail", shape: .lines([trail]), radius: 50, polygons: 1, holes: 0),
        Case(name: "long trail", shape: .lines([trail]), radius: 3_000, polygons: 1, holes: 0),
        Case(name: "two parks", shape: .areas([[park], [neighbour]]), radius: 400, polygons: 1, holes: 0),
        Case(name: "reef across ±180°", shape: .areas([[reef]]), radius: 1_000, polygons: 2, holes: 0),
        Case(name: "path across ±180°", shape: .lines([crossing]), radius: 5_000, polygons: 2, holes: 0),
        Case(name: "ice shelf around the North Pole", shape: .areas([[shelf]]), radius: 20_000, polygons: 1, holes: 0),
        Case(name: "area around the South Pole", shape: .areas([[antarctic]]), radius: 50_000, polygons: 1, holes: 0),
        Case(name: "loop trail", shape: .lines([loop]), radius: 200, polygons: 1, holes: 1),
        Case(name: "small park, large R", shape: .areas([[park]]), radius: 3_000_000, polygons: 1, holes: 0),
        Case(name: "long trail, large R", shape: .lines([trail]), radius: 800_000, polygons: 1, holes: 0),
    ]

    /// The edges of GeoJSON-ready polygons that are the outline's: not the cuts along a pole's
    /// edge or along ±180°.
    private static func edges(of polygons: [[[Coordinate]]]) -> [(Coordinate, Coordinate)] {
        var out: [(Coordinate, Coordinate)] = []
        for ring in polygons.joined() {
            for (a, b) in zip(ring, ring.dropFirst()) {
                let alongPole = abs(a.latitude) == 90 || abs(b.latitude) == 90
                let alongMeridian = abs(a.longitude) == 180 && abs(b.longitude) == 180
                if !alongPole && !alongMeridian { out.append((a, b)) }
            }
        }
        return out
    }

    /// Whether a point is inside the polygons in longitude/latitude (even-odd over every ring).
    private static func inside(_ p: Coordinate, _ polygons: [[[Coordinate]]]) -> Bool {
        var inside = false
        for ring in polygons.flatMap({ $0 }) {
            for (a, b) in zip(ring, ring.dropFirst()) where (a.latitude > p.latitude) != (b.latitude > p.latitude) {
                let x = a.longitude + (p.latitude - a.latitude) * (b.longitude - a.longitude) / (b.latitude - a.latitude)
                if p.longitude < x { inside.toggle() }
            }
        }
        return inside
    }

    @Test(arguments: cases) func everyVertexAndEveryEdgeMidpointIsWithinATenthOfAPercentOfR(_ c: Case) throws {
        let geos = PlaneGEOS()
        let drawing = try #require(PlaceDrawing(c.shape, radius: c.radius, geos: geos))
        let outline = try #require(drawing.outline)
        let place = try #require(GeodesicShape(c.shape))
        var worst = 0.0
        var vertices = 0
        // The unsplit rings (the page's) and the cut polygons (the GeoJSON's).
        for vertex in Array(outline.parts.joined()) + outline.polygons.joined().joined() where abs(vertex.latitude) < 90 {
            worst = max(worst, abs(place.distance(from: vertex) - c.radius) / c.radius)
            vertices += 1
        }
        var worstMidpoint = 0.0
        var longest = 0.0
        for (a, b) in Self.edges(of: outline.polygons) {
            let middle = Coordinate(
                latitude: (a.latitude + b.latitude) / 2,
                longitude: GeodesicCircle.wrapped(a.longitude + GeodesicCircle.wrapped(b.longitude - a.longitude) / 2))
            worstMidpoint = max(worstMidpoint, abs(place.distance(from: middle) - c.radius) / c.radius)
            longest = max(longest, Geodesic.wgs84.distance(from: a, to: b))
        }
        print(
            "\(c.testDescription): \(vertices) vertices, worst \(worst) R at a vertex, \(worstMidpoint) R at a midpoint, longest edge \(longest / c.radius) R"
        )
        #expect(worst <= 0.001)
        #expect(worstMidpoint <= 0.001)
        #expect(vertices >= 64)
        #expect(outline.polygons.count == c.polygons)
        #expect(outline.polygons.reduce(0) { $0 + $1.count - 1 } == c.holes)
    }

    @Test(arguments: cases) func pointsJustInsideRAreInsideTheOutlineAndJustBeyondOutside(_ c: Case) throws {
        let drawing = try #require(PlaceDrawing(c.shape, radius: c.radius, geos: PlaneGEOS()))
        let outline = try #require(drawing.outline)
        let place = try #require(GeodesicShape(c.shape))
        var rng = IndexTestSupport.SeededGenerator(seed: 37)
        let vertices = Array(outline.parts.joined())
        var checked = 0
        for _ in 0..<400 {
            let vertex = vertices[Int.random(in: 0..<vertices.count, using: &rng)]
            let p = Geodesic.wgs84.destination(
                from: vertex, azimuth: Double.random(in: 0..<360, using: &rng),
                distance: c.radius * Double.random(in: 0.002...0.05, using: &rng))
            let d = place.distance(from: p)
            guard abs(d - c.radius) > 0.002 * c.radius else { continue }
            #expect(Self.inside(p, outline.polygons) == (d < c.radius), "\(p) at \(d) m")
            checked += 1
        }
        #expect(checked > 100)
    }

    @Test(arguments: cases) func asGeoJSONThePlaceAndItsOutlineAreValid(_ c: Case) throws {
        let catalog = try LandmarkCatalog([
            Landmark(id: 1, name: "Place", coordinate: Self.c(0, 0), isFavorite: true, shape: c.shape)
        ])
        let drawing = MapDrawing(recorder: RunRecorder(), catalog: catalog, favoriteIndices: [0], radius: { _ in c.radius })
        let text = MapGeoJSON.document(for: drawing)
        #expect(GeoJSONCheck.problems(in: text) == [])
        let features = try MapCommandTests.Features(text)
        let outline = try #require(features.kind("radius").first?["geometry"]?["type"]?.stringValue)
        #expect(outline == (c.polygons == 1 ? "Polygon" : "MultiPolygon"))
        let place = try #require(features.kind("place").first)
        #expect(place["properties"]?["shape"]?.stringValue == c.shape.kind.rawValue)
        #expect(place["properties"]?["landmark"]?.stringValue == "Place")
    }

    @Test func withRZeroTheOutlineIsThePlace() throws {
        let shapes: [LandmarkShape] = [
            .areas([Self.lake]), .lines([Self.trail]), .areas([[Self.reef]]), .areas([[Self.shelf]]), .lines([Self.crossing]),
        ]
        for shape in shapes {
            let drawing = try #require(PlaceDrawing(shape, radius: 0, geos: PlaneGEOS()))
            let outline = try #require(drawing.outline)
            #expect(outline.polygons == drawing.place.polygons && outline.paths == drawing.place.paths)
            let place = try #require(GeodesicShape(shape))
            for vertex in Array(outline.parts.joined()) + Array(outline.polygons.joined().joined()) + Array(outline.paths.joined()) {
                #expect(place.distance(from: vertex) <= 0.001)
            }
        }
        let text = MapGeoJSON.document(
            for: MapDrawing(
                recorder: RunRecorder(),
                catalog: try LandmarkCatalog([
                    Landmark(id: 1, name: "T", coordinate: Self.trail[0], isFavorite: true, shape: .lines([Self.trail]))
                ]),
                favoriteIndices: [0], radius: { _ in 0 }))
        #expect(GeoJSONCheck.problems(in: text) == [])
        #expect(try MapCommandTests.Features(text).kind("radius").first?["geometry"]?["type"]?.stringValue == "LineString")
    }

    @Test func aLongGeodesicEdgeIsDrawnAlongTheGeodesic() throws {
        // 600 km along 60°N: the straight line in longitude/latitude would stray 12 km south.
        let shape = LandmarkShape.lines([[Self.c(60, 0), Self.c(60, 10)]])
        let drawing = try #require(PlaceDrawing(shape, radius: 0, geos: PlaneGEOS()))
        let line = try #require(drawing.place.paths.first)
        #expect(line.first == Self.c(60, 0) && line.last == Self.c(60, 10))
        let place = try #require(GeodesicShape(shape))
        for (a, b) in zip(line, line.dropFirst()) {
            #expect(place.distance(from: Self.c((a.latitude + b.latitude) / 2, (a.longitude + b.longitude) / 2)) <= 0.5)
        }
    }

    @Test func anOutlineHoldingBothPolesIsNotDrawn() throws {
        let drawing = try #require(PlaceDrawing(.areas([[Self.park]]), radius: 15_000_000, geos: PlaneGEOS()))
        #expect(drawing.outline == nil)
        let catalog = try LandmarkCatalog([
            Landmark(id: 1, name: "P", coordinate: Self.park[0], isFavorite: true, shape: .areas([[Self.park]]))
        ])
        let text = MapGeoJSON.document(
            for: MapDrawing(recorder: RunRecorder(), catalog: catalog, favoriteIndices: [0], radius: { _ in 15_000_000 }))
        #expect(GeoJSONCheck.problems(in: text) == [])
        #expect(try MapCommandTests.Features(text).kind("radius").first?["geometry"]?.isNull == true)
    }
}
