import Testing
@testable import LandmarkNear

@Suite(.suiteTimeLimit) struct QueryPointTests {
    @Test(arguments: [
        ("34.0,-116.0", 34.0, -116.0), (" -33.9 , 151.2 ", -33.9, 151.2), ("-33.9 151.2", -33.9, 151.2),
        ("\u{FEFF}1,2", 1, 2), ("90,-180", 90, -180), ("-90,180", -90, 180), ("1e1,+2.5", 10, 2.5), ("0\t0", 0, 0),
    ])
    func readsALine(_ line: String, _ latitude: Double, _ longitude: Double) throws {
        let point = try #require(try QueryPoint(line: line))
        #expect(point.coordinate == Coordinate(latitude: latitude, longitude: longitude))
    }

    @Test(arguments: ["", "   ", "# a comment", "#1,2"])
    func skipsBlankAndCommentLines(_ line: String) throws {
        #expect(try QueryPoint(line: line) == nil)
    }

    @Test(arguments: [
        ("abc,1", "latitude 'abc' is not a number"),
        ("1,", "longitude is missing"),
        ("1", "expected 'lat,lon' (two numbers), found 1 field"),
        ("1,2,3", "expected 'lat,lon' (two numbers), found 3 fields"),
        ("91,0", "latitude 91.0 is outside [-90, 90]"),
        ("0,-180.5", "longitude -180.5 is outside [-180, 180]"),
        ("nan,0", "latitude 'nan' is not a finite number"),
        ("0,inf", "longitude 'inf' is not a finite number"),
        ("1e999,0", "latitude '1e999' is not a finite number"),
        ("0x10,0", "latitude '0x10' is not a number"),
    ])
    func rejectsWithAReason(_ line: String, _ reason: String) {
        #expect(throws: QueryPointError(reason)) { try QueryPoint(line: line) }
    }

    @Test(arguments: [("34.0", "34.0"), ("34", "34"), ("+34", "34"), ("34.", "34"), (".5", "0.5"), ("-0.0", "-0.0"), ("1E1", "1E1")])
    func jsonEchoesTheNumberAsGivenWhenItIsJSON(_ text: String, _ json: String) throws {
        let point = try QueryPoint(latitude: text, longitude: "0")
        #expect(point.jsonLatitude == json)
    }
}

@Suite(.suiteTimeLimit) struct NearestAnswerFormatTests {
    @Test func jsonHasTheSpecShape() throws {
        let point = try QueryPoint(latitude: "34.0", longitude: "-116.0")
        let answers = [LandmarkNeighbor(index: 0, distance: 1234.56789), LandmarkNeighbor(index: 1, distance: 2)]
        #expect(NearestAnswerFormat.json(point: point, neighbors: answers, catalog: .embedded)
            == #"{"lat":34.0,"lon":-116.0,"nearest":[{"index":0,"id":1001,"name":"Turtle Rock","distanceMeters":1234.568},{"index":1,"id":1002,"name":"Silver Salmon Creek","distanceMeters":2}]}"#)
        #expect(NearestAnswerFormat.json(point: point, neighbors: [], catalog: .embedded) == #"{"lat":34.0,"lon":-116.0,"nearest":[]}"#)
    }

    @Test func namesAreEscapedInJSONAndMadeSafeInTables() throws {
        let catalog = try LandmarkCatalog([Landmark(id: 7, name: "Evil \"x\"\u{1B}[2J", coordinate: Coordinate(latitude: 0, longitude: 0))])
        let point = try QueryPoint(latitude: "0", longitude: "0")
        let answer = [LandmarkNeighbor(index: 0, distance: 0)]
        #expect(NearestAnswerFormat.json(point: point, neighbors: answer, catalog: catalog).contains(#""name":"Evil \"x\"\u001b[2J""#))
        #expect(!NearestAnswerFormat.rows(point: point, neighbors: answer, catalog: catalog, within: nil)[0].contains("\u{1B}"))
    }

    @Test func queryWithinFiltersTheNearest() {
        let index = LandmarkIndex(catalog: .embedded)
        let near = Coordinate(latitude: 34.0, longitude: -116.0)   // 15.5 km from Turtle Rock
        #expect(NearestQuery(limit: 2, within: Length(value: 10, unit: .miles)).answer(near, in: index).map(\.index) == [0])
        #expect(NearestQuery(limit: 2, within: Length(value: 5, unit: .miles)).answer(near, in: index).isEmpty)
        #expect(NearestQuery(limit: 2).answer(near, in: index).map(\.index) == [0, 5])
    }
}
