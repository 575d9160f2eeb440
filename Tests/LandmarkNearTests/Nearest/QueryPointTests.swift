import Testing

@_spi(Inlining) @testable import LandmarkNearCore
@testable import LandmarkNearIndex
@testable import LandmarkNearOutputs
@testable import LandmarkNearReaders

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
        ("91,0", "latitude 91.0 is outside [-90, 90]; did you mean 0,91? (order is latitude,longitude)"),
        ("95.5,200", "latitude 95.5 is outside [-90, 90]"),
        ("0,-180.5", "longitude -180.5 is outside [-180, 180]"),
        ("nan,0", "latitude 'nan' is not a finite number"),
        ("0,inf", "longitude 'inf' is not a finite number"),
        ("1e999,0", "latitude '1e999' is not a finite number"),
        ("0x10,0", "latitude '0x10' is not a number"),
    ])
    func rejectsWithAReason(_ line: String, _ reason: String) {
        #expect(throws: QueryPointError(reason)) { try QueryPoint(line: line) }
    }

    @Test(arguments: [
        ("34,5", "-116,2", 34.5, -116.2, "34.5", "-116.2"), ("-33,9", "+151,25", -33.9, 151.25, "-33.9", "+151.25"),
        ("0,0", "0,0", 0, 0, "0.0", "0.0"),
    ])
    func twoNumbersWithOneDecimalCommaEachAreDecimals(
        _ latitude: String, _ longitude: String, _ lat: Double, _ lon: Double,
        _ latitudeText: String, _ longitudeText: String
    ) throws {
        let point = try QueryPoint(latitude: latitude, longitude: longitude)
        #expect(point.coordinate == Coordinate(latitude: lat, longitude: lon))
        #expect(point.latitudeText == latitudeText && point.longitudeText == longitudeText)
        let line = try #require(try QueryPoint(line: "\(latitude) \(longitude)"))
        #expect(line == point)
    }

    @Test(arguments: [
        // One number with a comma and the other without: no reading is sure, so a hint.
        ("34,5", "-116.2", "latitude '34,5' is not a number (write 34.5: decimal commas only when both numbers have one)"),
        ("34.5", "-116,2", "longitude '-116,2' is not a number (write -116.2: decimal commas only when both numbers have one)"),
        ("34,5,1", "-116,2", "latitude '34,5,1' is not a number"),
    ])
    func aLoneDecimalCommaGetsAHint(_ latitude: String, _ longitude: String, _ reason: String) {
        #expect(throws: QueryPointError(reason)) { try QueryPoint(latitude: latitude, longitude: longitude) }
    }

    @Test(arguments: [
        ("-116 34", "latitude -116.0 is outside [-90, 90]; did you mean 34,-116? (order is latitude,longitude)"),
        ("-116.17,34.01", "latitude -116.17 is outside [-90, 90]; did you mean 34.01,-116.17? (order is latitude,longitude)"),
        ("151,2 -33,9", "latitude 151.2 is outside [-90, 90]; did you mean -33.9,151.2? (order is latitude,longitude)"),
        ("180,90", "latitude 180.0 is outside [-90, 90]; did you mean 90,180? (order is latitude,longitude)"),
        // No hint where swapping would not give a position either.
        ("-200,34", "latitude -200.0 is outside [-90, 90]"),
        ("-116,-95", "latitude -116.0 is outside [-90, 90]"),
        ("34,-200", "longitude -200.0 is outside [-180, 180]"),
        // Four whole numbers: decimal commas written with commas between the numbers too.
        ("34,5,-116,2", "expected 'lat,lon' (two numbers), found 4 fields; decimal commas? write 34.5,-116.2"),
        ("1,2,3,x", "expected 'lat,lon' (two numbers), found 4 fields"),
    ])
    func hintsAtSwappedOrDecimalCommaInput(_ line: String, _ reason: String) {
        #expect(throws: QueryPointError(reason)) { try QueryPoint(line: line) }
    }

    @Test func aLongitudeFirstLineIsReadSwappedAndHintedInItsOwnOrder() throws {
        let point = try #require(try QueryPoint(line: "-116.2, 34.5", order: .longitudeFirst))
        #expect(point.coordinate == Coordinate(latitude: 34.5, longitude: -116.2))
        #expect(point.latitudeText == "34.5" && point.longitudeText == "-116.2")
        #expect(
            throws: QueryPointError(
                "latitude -116.0 is outside [-90, 90]; did you mean -116,34? (order is longitude,latitude, as the header says)")
        ) {
            try QueryPoint(line: "34,-116", order: .longitudeFirst)
        }
    }

    @Test(arguments: [("34.0", "34.0"), ("34", "34"), ("+34", "34"), ("34.", "34"), (".5", "0.5"), ("-0.0", "-0.0"), ("1E1", "1E1")])
    func jsonEchoesTheNumberAsGivenWhenItIsJSON(_ text: String, _ json: String) throws {
        let point = try QueryPoint(latitude: text, longitude: "0")
        #expect(point.jsonLatitude == json)
    }
}

@Suite(.suiteTimeLimit) struct QueryHeaderTests {
    @Test(arguments: [
        ("lat,lon", QueryPoint.Order.latitudeFirst), ("latitude,longitude", .latitudeFirst), ("LAT,LON", .latitudeFirst),
        (" Latitude , Longitude ", .latitudeFirst), ("\"lat\",\"lng\"", .latitudeFirst), ("'Lat', 'Long'", .latitudeFirst),
        ("lat lon", .latitudeFirst), ("lat\tlongitude\r", .latitudeFirst), ("\u{FEFF}lat,lon", .latitudeFirst),
        ("lon,lat", .longitudeFirst), ("Longitude,Latitude", .longitudeFirst), ("\"lng\" \"lat\"", .longitudeFirst),
    ])
    func namesTheOrder(_ line: String, _ order: QueryPoint.Order) {
        #expect(QueryHeader.order(of: Array(line.utf8)) == order)
    }

    @Test(arguments: ["34,-116", "lat", "lat,lon,name", "lat,lat", "x,y", "latitude;longitude", "# lat,lon", "lat,lon2", ""])
    func isNotAHeader(_ line: String) {
        #expect(QueryHeader.order(of: Array(line.utf8)) == nil)
    }
}

@Suite(.suiteTimeLimit) struct NearestAnswerFormatTests {
    @Test func jsonHasTheSpecShape() throws {
        let point = try QueryPoint(latitude: "34.0", longitude: "-116.0")
        let answers = [LandmarkNeighbor(index: 0, distance: 1234.56789), LandmarkNeighbor(index: 1, distance: 2)]
        #expect(
            NearestAnswerFormat.json(point: point, neighbors: answers, catalog: .embedded)
                == #"{"lat":34.0,"lon":-116.0,"nearest":[{"index":0,"id":1001,"name":"Turtle Rock","distanceMeters":1234.568},{"index":1,"id":1002,"name":"Silver Salmon Creek","distanceMeters":2}]}"#
        )
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
        let near = Coordinate(latitude: 34.0, longitude: -116.0)  // 15.5 km from Turtle Rock
        #expect(NearestQuery(limit: 2, within: Length(value: 10, unit: .miles)).answer(near, in: index).map(\.index) == [0])
        #expect(NearestQuery(limit: 2, within: Length(value: 5, unit: .miles)).answer(near, in: index).isEmpty)
        #expect(NearestQuery(limit: 2).answer(near, in: index).map(\.index) == [0, 5])
    }
}
