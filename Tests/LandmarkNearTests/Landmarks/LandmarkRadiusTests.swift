import Foundation
import Testing

@_spi(Inlining) @testable import LandmarkNearCore
@testable import LandmarkNearEngine
@testable import LandmarkNearOutputs
@testable import LandmarkNearReaders

/// A landmark's own `radius` (docs/reference/catalogs.md) in each catalog format, in the engine and the payload.
@Suite(.suiteTimeLimit) struct LandmarkRadiusTests {
    static let csv =
        "id,name,lat,lon,isFavorite,radius\n1,Near,34.0,-116.0,true,300\n2,Far,35.0,-116.0,true,2km\n3,Default,36.0,-116.0,true,\n"
    static let tutorial =
        #"[{"id":1,"name":"Near","coordinates":{"latitude":34.0,"longitude":-116.0},"isFavorite":true,"radius":300},"#
        + #"{"id":2,"name":"Far","coordinates":{"latitude":35.0,"longitude":-116.0},"isFavorite":true,"radius":"2km"},"#
        + #"{"id":3,"name":"Default","coordinates":{"latitude":36.0,"longitude":-116.0},"isFavorite":true}]"#
    static let geojson =
        #"{"type":"FeatureCollection","features":["#
        + #"{"type":"Feature","geometry":{"type":"Point","coordinates":[-116.0,34.0]},"properties":{"id":1,"name":"Near","isFavorite":true,"radius":"300"}},"#
        + #"{"type":"Feature","geometry":{"type":"Point","coordinates":[-116.0,35.0]},"properties":{"id":2,"name":"Far","isFavorite":true,"radius":"2 km"}},"#
        + #"{"type":"Feature","geometry":{"type":"Point","coordinates":[-116.0,36.0]},"properties":{"id":3,"name":"Default","isFavorite":true,"radius":null}}]}"#

    @Test(arguments: [csv, tutorial, geojson])
    func everyCatalogFormatCarriesIt(_ text: String) throws {
        let catalog = try CatalogLoader.parse(Array(text.utf8), source: "c")
        #expect(catalog.landmarks.map { $0.radius?.meters } == [300, 2000, nil])
        let builder = PayloadBuilder(options: PayloadOptions())
        #expect(builder.json(for: catalog[0], index: 0).contains("You are within 300 m of Near."))
        #expect(builder.json(for: catalog[1], index: 1).contains("You are within 2 km of Far."))
        #expect(builder.json(for: catalog[2], index: 2).contains("You are within 5 miles of Default."))
        // `watch`'s path, which reads only the name and the radius from the catalog.
        var cache = PayloadCache(options: PayloadOptions())
        for index in 0..<catalog.count {
            let expected = builder.json(for: catalog[index], index: index)
            #expect(cache.json(forLandmarkAt: index, named: catalog.name(at: index), radius: catalog.radius(at: index)) == expected)
            #expect(cache.json(forLandmarkAt: index, named: catalog.name(at: index), radius: catalog.radius(at: index)) == expected)
        }
    }

    /// `payload` names a landmark with its own radius as `watch` does, whatever `--radius` says.
    @Test(arguments: [("1", "300 m of Near"), ("2", "2 km of Far"), ("3", "1 mile of Default")])
    func thePayloadCommandNamesTheLandmarksOwnRadius(_ id: String, _ phrase: String) async throws {
        let directory = try makeTemporaryDirectory("payload-radius")
        defer { try? FileManager.default.removeItem(at: directory) }
        let catalog = directory.appendingPathComponent("c.csv")
        try Self.csv.write(to: catalog, atomically: true, encoding: .utf8)
        let result = try await runTool(["payload", "--landmarks", catalog.path, "--id", id, "--radius", "1mi"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("You are within \(phrase)."), "\(result.stdout)")
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
        #expect(step(34.0035) == [])  // 389 m from Near: outside its 300 m
        #expect(step(34.0025) == ["enter Near"])  // 278 m
        #expect(step(34.0034) == [])  // 378 m: within 300 m + 100 m
        #expect(step(34.0037) == ["exit Near"])  // 411 m
        #expect(step(35.017) == ["enter Far"])  // 1.9 km, within its 2 km
        #expect(step(36.07) == ["enter Default", "exit Far"])  // 7.8 km: the run's 5 miles; by distance
    }

    @Test(arguments: [
        ("id,name,lat,lon,radius\n1,A,1,2,-5\n", "c: entry 0 (id 1) at line 2 has a radius that is not a non-negative number of metres"),
        (
            "id,name,lat,lon,radius\n1,A,1,2,2 parsecs\n",
            "c: entry 0 (id 1) at line 2 has a radius \"2 parsecs\": unknown unit 'parsecs'; use mi, km, m or ft (e.g. 5mi, 8km, 500m)"
        ),
        (
            #"[{"id":1,"name":"A","latitude":1,"longitude":2,"radius":true}]"#,
            "c: entry 0 (id 1) at line 1, column 2 has a radius that is a boolean, not metres or a length such as \"2km\""
        ),
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

/// A refused catalog lists its problems (up to 20, then "and N more"), each with its entry,
/// id and place in the file: the CSV line, the JSON line and column.
@Suite(.suiteTimeLimit) struct CatalogProblemListTests {
    static func refusal(_ text: String) -> String {
        do {
            _ = try CatalogLoader.parse(Array(text.utf8), source: "c")
            return "accepted"
        } catch {
            return error.description
        }
    }

    @Test func csvProblemsNameTheirLines() {
        let text = "id,name,lat,lon\n1,A,1,2\n1,B,1,2\n\n3,,95,2\n4,D,x,2\n"
        #expect(
            Self.refusal(text) == """
                c: 4 problems:
                  entry 1 (id 1) at line 3 duplicates the id of entry 0
                  entry 2 (id 3) at line 5 has no name
                  entry 2 (id 3) at line 5 latitude 95.0 is outside [-90, 90]
                  entry 3 (id 4) at line 6 has a latitude that is not a number ("x")
                """)
    }

    @Test func jsonProblemsNameTheirLineAndColumn() {
        let text =
            "[\n  {\"id\": 1, \"name\": \"A\", \"latitude\": 1, \"longitude\": 2},\n  {\"id\": 1, \"name\": \"B\", \"latitude\": 1, \"longitude\": 2},\n"
            + "  {\"id\": 3, \"latitude\": 1, \"longitude\": 2}, {\"id\": 4, \"name\": \"D\", \"latitude\": 91, \"longitude\": 2}\n]\n"
        #expect(
            Self.refusal(text) == """
                c: 3 problems:
                  entry 1 (id 1) at line 3, column 3 duplicates the id of entry 0
                  entry 2 (id 3) at line 4, column 3 has no name
                  entry 3 (id 4) at line 4, column 45 latitude 91.0 is outside [-90, 90]
                """)
    }

    @Test func twentyAreListedThenACount() {
        let features = (0..<25).map {
            #"{"type":"Feature","geometry":{"type":"Point","coordinates":[2,\#(100 + $0)]},"properties":{"id":\#($0),"name":"n"}}"#
        }
        let text = #"{"type":"FeatureCollection","features":[\#n"# + features.joined(separator: ",\n") + "\n]}\n"
        let lines = Self.refusal(text).split(separator: "\n")
        #expect(lines.first == "c: 25 problems:")
        #expect(lines.count == 22)
        #expect(lines[1] == "  entry 0 (id 0) at line 2, column 1 latitude 100.0 is outside [-90, 90]")
        #expect(lines.last == "  and 5 more")
    }

    @Test func oneProblemStaysOneLine() {
        #expect(Self.refusal("id,name,lat,lon\n1,A,1,2\n2,,1,2\n") == "c: entry 1 (id 2) at line 3 has no name")
    }

    /// `nearest --within` counts a landmark with its own radius as within at that radius.
    @Test func nearestWithinHonoursOwnRadii() async throws {
        let directory = try makeTemporaryDirectory("radius")
        let path = directory.appendingPathComponent("r.csv").path
        try "id,name,lat,lon,radius\n1,Own,34.0,-116.0,300\n2,Plain,34.0,-116.001,\n".write(toFile: path, atomically: true, encoding: .utf8)
        let result = try await runTool(["nearest", "34.002", "-116.0", "-k", "2", "--within", "150m", "--json", "--landmarks", path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("\"name\":\"Own\""))
        #expect(!result.stdout.contains("\"name\":\"Plain\""))
    }

    /// A nearer landmark that is not within at its own (smaller) radius does not hide a farther
    /// one that is within: -k 1 --within 2km answers the farther one.
    @Test func nearestWithinLooksPastALandmarkOutsideItsOwnRadius() async throws {
        let directory = try makeTemporaryDirectory("radius")
        let path = directory.appendingPathComponent("r.csv").path
        try "id,name,lat,lon,radius\n1,Tiny,34.0,-116.0,10\n2,Plain,34.0,-116.01,\n".write(toFile: path, atomically: true, encoding: .utf8)
        let result = try await runTool(["nearest", "34.0005", "-116.0", "-k", "1", "--within", "2km", "--json", "--landmarks", path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("\"name\":\"Plain\""), "\(result.stdout)")
        #expect(!result.stdout.contains("\"name\":\"Tiny\""))
    }
}
