import Foundation
import Testing
@testable import LandmarkNear

/// A landmark's own `radius` (SPEC §1) in each catalog format, in the engine and the payload.
@Suite(.timeLimit(.minutes(1))) struct LandmarkRadiusTests {
    static let csv = "id,name,lat,lon,isFavorite,radius\n1,Near,34.0,-116.0,true,300\n2,Far,35.0,-116.0,true,2km\n3,Default,36.0,-116.0,true,\n"
    static let tutorial = #"[{"id":1,"name":"Near","coordinates":{"latitude":34.0,"longitude":-116.0},"isFavorite":true,"radius":300},"# +
        #"{"id":2,"name":"Far","coordinates":{"latitude":35.0,"longitude":-116.0},"isFavorite":true,"radius":"2km"},"# +
        #"{"id":3,"name":"Default","coordinates":{"latitude":36.0,"longitude":-116.0},"isFavorite":true}]"#
    static let geojson = #"{"type":"FeatureCollection","features":["# +
        #"{"type":"Feature","geometry":{"type":"Point","coordinates":[-116.0,34.0]},"properties":{"id":1,"name":"Near","isFavorite":true,"radius":"300"}},"# +
        #"{"type":"Feature","geometry":{"type":"Point","coordinates":[-116.0,35.0]},"properties":{"id":2,"name":"Far","isFavorite":true,"radius":"2 km"}},"# +
        #"{"type":"Feature","geometry":{"type":"Point","coordinates":[-116.0,36.0]},"properties":{"id":3,"name":"Default","isFavorite":true,"radius":null}}]}"#

    @Test(arguments: [csv, tutorial, geojson])
    func everyCatalogFormatCarriesIt(_ text: String) throws {
        let catalog = try CatalogLoader.parse(Array(text.utf8), source: "c")
        #expect(catalog.landmarks.map { $0.radius?.meters } == [300, 2000, nil])
        let builder = PayloadBuilder(options: PayloadOptions())
        #expect(builder.json(for: catalog[0], index: 0).contains("You are within 300 m of Near."))
        #expect(builder.json(for: catalog[1], index: 1).contains("You are within 2 km of Far."))
        #expect(builder.json(for: catalog[2], index: 2).contains("You are within 5 miles of Default."))
    }

    /// Enter within the landmark's own radius, exit beyond it + hysteresis; the others keep
    /// the run's radius.
    @Test func theEngineUsesEachLandmarksRadius() throws {
        let catalog = try CatalogLoader.parse(Array(Self.csv.utf8), source: "c")
        var configuration = EngineConfiguration()
        configuration.hysteresis = 100
        let engine = try ProximityEngine(catalog: catalog, configuration: configuration)
        var events: [ProximityEvent] = []
        func step(_ latitude: Double) -> [String] {
            events.removeAll()
            _ = engine.process(Fix(coordinate: Coordinate(latitude: latitude, longitude: -116.0)), into: &events)
            return events.map { "\($0.kind.rawValue) \(catalog[$0.landmarkIndex].name)" }
        }
        #expect(step(34.0035) == [])               // 389 m from Near: outside its 300 m
        #expect(step(34.0025) == ["enter Near"])   // 278 m
        #expect(step(34.0034) == [])               // 378 m: within 300 m + 100 m
        #expect(step(34.0037) == ["exit Near"])    // 411 m
        #expect(step(35.017) == ["enter Far"])     // 1.9 km, within its 2 km
        #expect(step(36.07) == ["enter Default", "exit Far"])  // 7.8 km: the run's 5 miles; by distance
    }

    @Test(arguments: [
        ("id,name,lat,lon,radius\n1,A,1,2,-5\n", "c: entry 0 (id 1) has a radius that is not a non-negative number of metres"),
        ("id,name,lat,lon,radius\n1,A,1,2,2 parsecs\n", "c: entry 0 (id 1) has a radius \"2 parsecs\": unknown unit 'parsecs'; use mi, km, m or ft (e.g. 5mi, 8km, 500m)"),
        (#"[{"id":1,"name":"A","latitude":1,"longitude":2,"radius":true}]"#, "c: entry 0 (id 1) has a radius that is a boolean, not metres or a length such as \"2km\""),
    ])
    func badRadiiRefuseTheCatalog(_ text: String, _ message: String) throws {
        #expect(throws: CatalogError.self) { _ = try CatalogLoader.parse(Array(text.utf8), source: "c") }
        do {
            _ = try CatalogLoader.parse(Array(text.utf8), source: "c")
        } catch {
            #expect(error.description == message)
        }
    }
}
