import Foundation
import Testing

@testable import LandmarkNearReaders

/// The hint that a catalog holds places (the fix reader yields to such a start-up): what the
/// start of each kind of catalog says, and that a place's type only counts as a `type` member's
/// value, not in a name.
@Suite(.suiteTimeLimit) struct PlaceHintTests {
    @Test(arguments: [
        (
            "GeoJSON polygon",
            #"{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type" : "Polygon","coordinates":[]}}]}"#, true
        ),
        ("GeoJSON line", #"{"features":[{"geometry":{"coordinates":[],"type":"MultiLineString"}}]}"#, true),
        (
            "GeoJSON points",
            #"{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Point","coordinates":[1,2]}}]}"#, false
        ),
        (
            "a name that says Polygon",
            #"{"features":[{"properties":{"name":"Polygon"},"geometry":{"type":"Point","coordinates":[1,2]}}]}"#, false
        ),
        ("tutorial JSON with a geometry", #"[{"name":"Lake","geometry":{"type":"Polygon","coordinates":[]}}]"#, true),
        ("tutorial JSON points", #"[{"name":"Tower","latitude":1,"longitude":2}]"#, false),
        ("CSV with wkt", "id,name,\"WKT\"\n1,Lake,\"POLYGON ((0 0, 1 0, 1 1, 0 0))\"\n", true),
        ("CSV with coordinates", "id,name,lat,lon\n1,Tower,1,2\n", false),
        ("CSV with wkt only in a row", "id,name,lat,lon\n1,wkt,1,2\n", false),
    ])
    func theStartOfACatalogSays(_ name: String, _ text: String, _ places: Bool) throws {
        let directory = try makeTemporaryDirectory("place-hint")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("catalog").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        #expect(PlaceHint.mayHoldPlaces(path: path) == places, "\(name)")
    }

    @Test func aFileThatCannotBeReadSaysNo() {
        #expect(!PlaceHint.mayHoldPlaces(path: "/nonexistent/catalog.geojson"))
        #expect(!PlaceHint.mayHoldPlaces(path: "/"))
    }
}
