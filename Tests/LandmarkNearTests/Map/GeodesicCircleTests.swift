import Foundation
import Testing

@_spi(Inlining) @testable import LandmarkNearCore
@_spi(Inlining) @testable import LandmarkNearGeodesy
@testable import LandmarkNearOutputs

/// Geodesic circles: the direct problem's vertices at the radius, split at ±180°, closed around
/// poles, counterclockwise, valid GeoJSON.
@Suite(.suiteTimeLimit) struct GeodesicCircleTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var latitude: Double, longitude: Double, radius: Double
        var pieces: Int
        var testDescription: String { "(\(latitude), \(longitude)) r=\(radius) m" }
    }

    static let cases: [Case] = [
        Case(latitude: 34.011286, longitude: -116.166868, radius: 8_046.72, pieces: 1),  // Turtle Rock
        Case(latitude: 10, longitude: 179.99, radius: 20_000, pieces: 2),
        Case(latitude: -45, longitude: -179.9, radius: 50_000, pieces: 2),
        Case(latitude: 0, longitude: 180, radius: 8_046.72, pieces: 2),
        Case(latitude: 0, longitude: -180, radius: 8_046.72, pieces: 2),
        Case(latitude: 60, longitude: 170, radius: 1_500_000, pieces: 2),
        Case(latitude: 89.95, longitude: 45, radius: 10_000, pieces: 1),  // holds the North Pole
        Case(latitude: -89.9, longitude: -120, radius: 30_000, pieces: 1),  // holds the South Pole
        Case(latitude: 90, longitude: 0, radius: 5_000, pieces: 1),  // centred on it
        Case(latitude: -90, longitude: 0, radius: 5_000, pieces: 1),
        Case(latitude: 89.9, longitude: 180, radius: 20_000, pieces: 1),  // pole and ±180°
        Case(latitude: 70, longitude: -100, radius: 3_000_000, pieces: 1),  // a big polar cap
        Case(latitude: 89.9, longitude: 0, radius: 5_000, pieces: 1),  // near, pole outside
        Case(latitude: 89.9, longitude: 179, radius: 5_000, pieces: 2),  // near the pole, across ±180°
    ]

    @Test(arguments: cases) func everyVertexIsAtTheRadiusWithinAMillimetre(_ c: Case) {
        let center = Coordinate(latitude: c.latitude, longitude: c.longitude)
        let circle = GeodesicCircle(center: center, radius: c.radius)
        #expect(circle.ring.count - 1 >= 64)
        #expect(circle.ring.first == circle.ring.last)
        let vertices = circle.ring + circle.polygons.joined()
        var checked = 0
        for vertex in vertices where abs(vertex.latitude) < 90 {
            let distance = Geodesic.wgs84.distance(from: center, to: vertex)
            #expect(abs(distance - c.radius) <= 0.001, "vertex \(vertex) is \(distance) m from the centre")
            checked += 1
        }
        #expect(checked >= 64)
        // The only vertices off the circle close a polar cap along the pole's edge.
        for vertex in circle.polygons.joined() where abs(vertex.latitude) == 90 {
            #expect(circle.enclosedPole != 0)
            #expect(abs(vertex.longitude) == 180)
        }
    }

    @Test(arguments: cases) func splitAtTheAntimeridianAndClosedAroundPoles(_ c: Case) {
        let center = Coordinate(latitude: c.latitude, longitude: c.longitude)
        let circle = GeodesicCircle(center: center, radius: c.radius)
        #expect(circle.polygons.count == c.pieces)
        let north = Geodesic.wgs84.distance(from: center, to: Coordinate(latitude: 90, longitude: 0)) <= c.radius
        let south = Geodesic.wgs84.distance(from: center, to: Coordinate(latitude: -90, longitude: 0)) <= c.radius
        #expect(circle.enclosedPole == (north ? 1 : south ? -1 : 0))
        for ring in circle.polygons {
            #expect(ring.count >= 4 && ring.first == ring.last)
            #expect(GeoJSONCheck.signedArea(ring) > 0, "not counterclockwise")
            for (a, b) in zip(ring, ring.dropFirst()) where !(abs(a.latitude) == 90 && a.latitude == b.latitude) {
                #expect(abs(b.longitude - a.longitude) <= 180)
            }
        }
        if circle.enclosedPole != 0 {
            let edge = Double(circle.enclosedPole) * 90
            #expect(circle.polygons[0].contains(Coordinate(latitude: edge, longitude: 180)))
            #expect(circle.polygons[0].contains(Coordinate(latitude: edge, longitude: -180)))
        }
        // The pieces cover the circle's longitudes: both sides of ±180° when it straddles it.
        if c.pieces == 2 {
            #expect(circle.polygons.contains { $0.contains { $0.longitude == 180 } })
            #expect(circle.polygons.contains { $0.contains { $0.longitude == -180 } })
        }
    }

    @Test func aCircleHoldingBothPolesIsLeftUnlocated() throws {
        let circle = GeodesicCircle(center: Coordinate(latitude: 10, longitude: 20), radius: 15_000_000)
        #expect(circle.coversBothPoles && circle.polygons.isEmpty)
        #expect(!GeodesicCircle(center: Coordinate(latitude: 10, longitude: 20), radius: 9_000_000).coversBothPoles)
        let catalog = try LandmarkCatalog([Landmark(id: 1, name: "Everywhere", coordinate: circle.center, isFavorite: true)])
        let drawing = MapDrawing(recorder: RunRecorder(), catalog: catalog, favoriteIndices: [0], radius: { _ in 15_000_000 })
        let text = MapGeoJSON.document(for: drawing)
        #expect(GeoJSONCheck.problems(in: text) == [])
        #expect(try JSONParser.parse(text)["features"]?.arrayValue?.first?["geometry"]?.isNull == true)
    }

    @Test(arguments: cases) func asGeoJSONItIsValid(_ c: Case) throws {
        let catalog = try LandmarkCatalog([
            Landmark(id: 1, name: "Here", coordinate: Coordinate(latitude: c.latitude, longitude: c.longitude), isFavorite: true)
        ])
        let drawing = MapDrawing(recorder: RunRecorder(), catalog: catalog, favoriteIndices: [0], radius: { _ in c.radius })
        let text = MapGeoJSON.document(for: drawing)
        #expect(GeoJSONCheck.problems(in: text) == [])
        let geometry = try JSONParser.parse(text)["features"]?.arrayValue?.first?["geometry"]
        #expect(geometry?["type"]?.stringValue == (c.pieces == 1 ? "Polygon" : "MultiPolygon"))
    }
}
