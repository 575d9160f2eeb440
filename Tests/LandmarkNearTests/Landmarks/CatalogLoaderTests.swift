import Foundation
import Testing

@_spi(Inlining) @testable import LandmarkNearCore
@testable import LandmarkNearReaders

@Suite(.suiteTimeLimit) struct CatalogLoaderTests {
    static func parse(_ text: String) throws(CatalogError) -> LandmarkCatalog {
        try CatalogLoader.parse(Array(text.utf8), source: "test")
    }

    static func error(_ text: String) -> CatalogError? {
        do {
            _ = try parse(text)
            return nil
        } catch {
            return error
        }
    }

    // MARK: Accepted shapes

    @Test func readsTheTutorialShape() throws {
        let catalog = try Self.parse(
            """
            [{"id": 1001, "name": "Turtle Rock", "category": "Rivers", "city": "Twentynine Palms",
              "state": "California", "park": "Joshua Tree National Park",
              "coordinates": {"latitude": 34.011286, "longitude": -116.166868},
              "isFavorite": true, "isFeatured": true, "imageName": "turtlerock", "description": "ignored"},
             {"id": 1002, "name": "Silver Salmon Creek", "coordinates": {"latitude": 59.980167, "longitude": -152.665167}}]
            """)
        #expect(catalog.count == 2)
        #expect(catalog[0] == LandmarkCatalog.embedded[0])
        #expect(catalog[1].isFavorite == false && catalog[1].isFeatured == false && catalog[1].park == nil)
        #expect(catalog.index(ofID: 1002) == 1)
    }

    @Test func readsAGeoJSONFeatureCollection() throws {
        let catalog = try Self.parse(
            """
            {"type": "FeatureCollection", "features": [
              {"type": "Feature", "geometry": {"type": "Point", "coordinates": [-116.166868, 34.011286]},
               "properties": {"id": 1001, "name": "Turtle Rock", "isFavorite": true, "park": "Joshua Tree National Park"}},
              {"type": "Feature", "id": 7, "geometry": {"type": "Point", "coordinates": [179.5, -16.5]},
               "properties": {"name": "Labasa"}},
              {"type": "Feature", "geometry": {"type": "Point", "coordinates": [0, 0]}, "properties": {"name": "Null Island"}}]}
            """)
        #expect(catalog.landmarks.map(\.id) == [1001, 7, 3])
        #expect(catalog[0].coordinate == Coordinate(latitude: 34.011286, longitude: -116.166868))
        #expect(catalog[0].isFavorite && catalog[0].park == "Joshua Tree National Park")
        #expect(catalog[1].coordinate == Coordinate(latitude: -16.5, longitude: 179.5))
    }

    @Test func readsCSVWithAnIdColumn() throws {
        let catalog = try Self.parse(
            "id,name,latitude,longitude,isFavorite,park\n1001,Turtle Rock,34.011286,-116.166868,true,Joshua Tree National Park\n1002,\"Salmon, Silver\",59.98,-152.66,false,\n"
        )
        #expect(catalog.landmarks.map(\.id) == [1001, 1002])
        #expect(catalog[1].name == "Salmon, Silver")
        #expect(catalog[0].isFavorite && !catalog[1].isFavorite)
        #expect(catalog[0].park == "Joshua Tree National Park" && catalog[1].park == nil)
    }

    @Test func numbersCSVRowsWithoutAnIdColumn() throws {
        let catalog = try Self.parse("lat,lng,name\n1,2,A\n\n3,4,B\r\n5,6,C")
        #expect(catalog.landmarks.map(\.id) == [1, 2, 3])
        #expect(catalog.landmarks.map(\.name) == ["A", "B", "C"])
        #expect(catalog[2].coordinate == Coordinate(latitude: 5, longitude: 6))
    }

    @Test(arguments: [
        ("true", true), ("false", false), ("1", true), ("0", false), ("yes", true), ("no", false),
        ("YES", true), ("No", false), ("", false),
    ])
    func readsCSVFavouriteFlags(_ cell: String, _ flag: Bool) throws {
        for header in ["isFavorite", "favorite"] {
            let catalog = try Self.parse("name,lat,lon,\(header)\nA,1,2,\(cell)\n")
            #expect(catalog[0].isFavorite == flag, "\(header)=\(cell)")
        }
    }

    @Test(arguments: [
        "[{\"id\":1,\"name\":\"A\",\"coordinates\":{\"latitude\":1,\"longitude\":2}}]",
        "{\"type\":\"FeatureCollection\",\"features\":[{\"type\":\"Feature\",\"geometry\":{\"type\":\"Point\",\"coordinates\":[2,1]},\"properties\":{\"id\":1,\"name\":\"A\"}}]}",
        "id,name,lat,lon\n1,A,1,2\n",
    ])
    func skipsAByteOrderMark(_ text: String) throws {
        let catalog = try CatalogLoader.parse([0xEF, 0xBB, 0xBF] + Array(text.utf8), source: "bom")
        #expect(catalog.landmarks == [Landmark(id: 1, name: "A", coordinate: Coordinate(latitude: 1, longitude: 2))])
    }

    @Test func loadsAFileAndReportsAMissingOne() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("catalog-\(UUID().uuidString).csv")
        try "name,lat,lon\nA,1,2\n".write(to: url, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: url) }
        #expect(try CatalogLoader.load(path: url.path).count == 1)
        #expect(throws: CatalogError(source: "/no/such.csv", reason: "no such file", kind: .missingInput)) {
            try CatalogLoader.load(path: "/no/such.csv")
        }
    }

    // MARK: Refused catalogs: the error names the entry (index and id)

    struct Refusal: CustomTestStringConvertible, Sendable {
        var name: String
        var text: String
        var entry: Int?
        var id: Int?
        var reasonContains: String
        var testDescription: String { name }
    }

    static let refusals: [Refusal] = [
        Refusal(
            name: "duplicate id (JSON)",
            text:
                #"[{"id":5,"name":"A","coordinates":{"latitude":1,"longitude":2}},{"id":5,"name":"B","coordinates":{"latitude":1,"longitude":2}}]"#,
            entry: 1, id: 5, reasonContains: "duplicates the id of entry 0"),
        Refusal(
            name: "duplicate id (CSV)", text: "id,name,lat,lon\n1,A,1,2\n2,B,1,2\n1,C,1,2\n",
            entry: 2, id: 1, reasonContains: "duplicates the id of entry 0"),
        Refusal(
            name: "latitude out of range", text: #"[{"id":9,"name":"A","coordinates":{"latitude":90.5,"longitude":2}}]"#,
            entry: 0, id: 9, reasonContains: "latitude 90.5 is outside [-90, 90]"),
        Refusal(
            name: "longitude out of range (GeoJSON)",
            text:
                #"{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Point","coordinates":[180.1,0]},"properties":{"id":3,"name":"A"}}]}"#,
            entry: 0, id: 3, reasonContains: "longitude 180.1 is outside [-180, 180]"),
        Refusal(
            name: "NaN latitude (CSV)", text: "id,name,lat,lon\n1,A,1,2\n4,B,nan,2\n",
            entry: 1, id: 4, reasonContains: "latitude is not a finite number"),
        Refusal(
            name: "infinite longitude (JSON string)",
            text: #"[{"id":8,"name":"A","coordinates":{"latitude":1,"longitude":"inf"}}]"#,
            entry: 0, id: 8, reasonContains: "longitude is not a finite number"),
        Refusal(
            name: "overflowing number (JSON)",
            text: #"[{"id":8,"name":"A","coordinates":{"latitude":1e999,"longitude":0}}]"#,
            entry: 0, id: 8, reasonContains: "latitude"),
        Refusal(
            name: "missing name (JSON)", text: #"[{"id":6,"coordinates":{"latitude":1,"longitude":2}}]"#,
            entry: 0, id: 6, reasonContains: "has no name"),
        Refusal(
            name: "empty name (CSV)", text: "id,name,lat,lon\n1,A,1,2\n2,  ,1,2\n",
            entry: 1, id: 2, reasonContains: "has no name"),
        Refusal(
            name: "non-numeric latitude (CSV)", text: "id,name,lat,lon\n7,A,north,2\n",
            entry: 0, id: 7, reasonContains: "latitude that is not a number"),
        Refusal(
            name: "non-numeric longitude (JSON)", text: #"[{"id":2,"name":"A","coordinates":{"latitude":1,"longitude":true}}]"#,
            entry: 0, id: 2, reasonContains: "longitude that is not a number"),
        Refusal(
            name: "missing latitude (JSON)", text: #"[{"id":2,"name":"A","coordinates":{"longitude":1}}]"#,
            entry: 0, id: 2, reasonContains: "has no latitude"),
        Refusal(
            name: "non-integer id (JSON)", text: #"[{"id":1.5,"name":"A","coordinates":{"latitude":1,"longitude":2}}]"#,
            entry: 0, id: nil, reasonContains: "id that is not an integer"),
        Refusal(
            name: "bad favourite flag (CSV)", text: "id,name,lat,lon,favorite\n3,A,1,2,maybe\n",
            entry: 0, id: 3, reasonContains: "favourite flag"),
        Refusal(
            name: "entry not an object (JSON)", text: #"[{"id":1,"name":"A","coordinates":{"latitude":1,"longitude":2}}, 3]"#,
            entry: 1, id: nil, reasonContains: "not an object"),
        Refusal(
            name: "feature that is neither a point nor a place",
            text:
                #"{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"GeometryCollection","geometries":[{"type":"Point","coordinates":[0,0]}]},"properties":{"id":4,"name":"A"}}]}"#,
            entry: 0, id: 4, reasonContains: "Point"),
        Refusal(name: "bad JSON", text: #"[{"id":1,"name":"A",}]"#, entry: nil, id: nil, reasonContains: ""),
        Refusal(
            name: "object but not a FeatureCollection", text: #"{"type":"Feature","features":[]}"#,
            entry: nil, id: nil, reasonContains: "not a GeoJSON FeatureCollection"),
        Refusal(name: "JSON that is neither", text: "  \"landmarks\"", entry: nil, id: nil, reasonContains: ""),
        Refusal(name: "CSV without coordinates", text: "id,name,x,y\n1,A,1,2\n", entry: nil, id: nil, reasonContains: "latitude/longitude"),
        Refusal(name: "CSV without names", text: "id,lat,lon\n1,1,2\n", entry: nil, id: nil, reasonContains: "no name column"),
        Refusal(name: "empty file", text: " \n", entry: nil, id: nil, reasonContains: "is empty"),
    ]

    @Test(arguments: refusals)
    func refusesTheWholeCatalog(_ refusal: Refusal) throws {
        let error = try #require(Self.error(refusal.text))
        #expect(error.entry == refusal.entry)
        #expect(error.id == refusal.id)
        #expect(error.source == "test")
        if !refusal.reasonContains.isEmpty {
            #expect(error.reason.contains(refusal.reasonContains), "\(error.description)")
        }
        if let entry = refusal.entry {
            #expect(error.description.contains("entry \(entry)"))
            if let id = refusal.id { #expect(error.description.contains("(id \(id))")) }
        }
        #expect(error.kind == .badData)
    }
}
