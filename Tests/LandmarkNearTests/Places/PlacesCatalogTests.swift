import Foundation
import Testing

/// Catalogs with places through the built tool (docs/reference/catalogs.md): the three
/// encodings of one geometry answer alike, both encodings of a polygon across ±180° are one
/// area, Natural Earth's Antarctica ring is the ring around the pole, a radius of 0 means
/// inside ("0 m"), `landmarks` shows kinds and vertex counts, and a bad geometry refuses the
/// catalog naming the entry, its id, GEOS's reason and where.
@Suite(.suiteTimeLimit) struct PlacesCatalogTests {
    static func write(_ text: String, _ name: String, in directory: URL) throws -> String {
        let path = directory.appendingPathComponent(name).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    static func feature(_ id: Int, _ name: String, _ geometry: String, properties: String = "") -> String {
        #"{"type":"Feature","properties":{"id":\#(id),"name":"\#(name)"\#(properties)},"geometry":\#(geometry)}"#
    }

    static func collection(_ features: [String]) -> String {
        #"{"type":"FeatureCollection","features":["# + features.joined(separator: ",\n") + "]}\n"
    }

    /// `nearest -k N --json` for the queries: one line per query.
    static func nearest(_ catalog: String, _ queries: [String], k: Int) async throws -> [String] {
        let result = try await runTool(
            ["nearest", "-k", "\(k)", "--json", "--landmarks", catalog], stdin: queries.joined(separator: "\n") + "\n")
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout.split(separator: "\n").map(String.init)
    }

    static let queries = ["50.05,10.05", "50.02,10.02", "50.2,10.3", "49.9,9.9", "50.06,10.2", "-16.5,179.9", "-16.5,-179.2", "-15.9,180"]

    /// GeoJSON geometry, tutorial JSON `geometry` and CSV `wkt` are one catalog.
    @Test func theThreeEncodingsAnswerAlike() async throws {
        let directory = try makeTemporaryDirectory("places")
        let park =
            #"{"type":"Polygon","coordinates":[[[10,50],[10.1,50],[10.1,50.1],[10,50.1],[10,50]],[[10.04,50.04],[10.06,50.04],[10.06,50.06],[10.04,50.06],[10.04,50.04]]]}"#
        let trail = #"{"type":"LineString","coordinates":[[10.2,50],[10.3,50.1],[10.4,50]]}"#
        let geojson = try Self.write(
            Self.collection([Self.feature(1, "Park", park), Self.feature(2, "Trail", trail)]), "c.geojson", in: directory)
        let tutorial = try Self.write(
            """
            [{"id":1,"name":"Park","coordinates":{"latitude":50.05,"longitude":10.05},"geometry":\(park)},
             {"id":2,"name":"Trail","coordinates":{"latitude":50.1,"longitude":10.3},"geometry":\(trail)}]

            """, "c.json", in: directory)
        let csv = try Self.write(
            """
            id,name,wkt
            1,Park,"POLYGON ((10 50, 10.1 50, 10.1 50.1, 10 50.1, 10 50), (10.04 50.04, 10.06 50.04, 10.06 50.06, 10.04 50.06, 10.04 50.04))"
            2,Trail,"LINESTRING (10.2 50, 10.3 50.1, 10.4 50)"

            """, "c.csv", in: directory)
        let expected = try await Self.nearest(geojson, Self.queries, k: 2)
        #expect(expected.count == Self.queries.count)
        // Inside the park (not in its lake) is 0; in the lake it is the lake shore's distance.
        #expect(expected[1].contains(#""name":"Park","distanceMeters":0}"#), "\(expected[1])")
        #expect(!expected[0].contains(#""name":"Park","distanceMeters":0}"#), "\(expected[0])")
        #expect(try await Self.nearest(tutorial, Self.queries, k: 2) == expected)
        #expect(try await Self.nearest(csv, Self.queries, k: 2) == expected)
    }

    /// GeoJSON's members in any order: positions before their type (read once the type is
    /// known), with altitudes, and a type given twice (the last counts, as in the full reader)
    /// answer as the usual order does.
    @Test func aGeometrysMembersInAnyOrderReadAlike() async throws {
        let directory = try makeTemporaryDirectory("places-order")
        defer { try? FileManager.default.removeItem(at: directory) }
        let ring = "[[[10,50],[10.1,50],[10.1,50.1],[10,50.1],[10,50]]]"
        let path = "[[10.2,50],[10.3,50.1],[10.4,50]]"
        let usual = try Self.write(
            Self.collection([
                Self.feature(1, "Park", #"{"type":"Polygon","coordinates":\#(ring)}"#),
                Self.feature(2, "Trail", #"{"type":"LineString","coordinates":\#(path)}"#),
            ]), "usual.geojson", in: directory)
        let reordered = try Self.write(
            Self.collection([
                Self.feature(1, "Park", #"{"coordinates":[[[10,50,1],[10.1,50,2],[10.1,50.1,3],[10,50.1,4],[10,50,1]]],"type":"Polygon"}"#),
                Self.feature(2, "Trail", #"{"type":"Point","coordinates":\#(path),"bbox":[10.2,50,10.4,50.1],"type":"LineString"}"#),
            ]), "reordered.geojson", in: directory)
        let expected = try await Self.nearest(usual, Self.queries, k: 2)
        #expect(expected.count == Self.queries.count)
        #expect(try await Self.nearest(reordered, Self.queries, k: 2) == expected)
    }

    /// A polygon across ±180° split at the antimeridian (a MultiPolygon) and written with
    /// longitudes beyond 180 (with the same vertices: on 180 too, since one 2° geodesic is not
    /// two 1° ones) is one area: the same distances everywhere, none to the seam.
    @Test func bothEncodingsAcrossTheAntimeridianAreOneArea() async throws {
        let directory = try makeTemporaryDirectory("places")
        let split =
            #"{"type":"MultiPolygon","coordinates":[[[[179,-17],[180,-17],[180,-16],[179,-16],[179,-17]]],[[[-180,-17],[-179,-17],[-179,-16],[-180,-16],[-180,-17]]]]}"#
        let beyond = #"{"type":"Polygon","coordinates":[[[179,-17],[180,-17],[181,-17],[181,-16],[180,-16],[179,-16],[179,-17]]]}"#
        let a = try Self.write(Self.collection([Self.feature(1, "Fiji", split)]), "split.geojson", in: directory)
        let b = try Self.write(Self.collection([Self.feature(1, "Fiji", beyond)]), "beyond.geojson", in: directory)
        let queries = ["-16.5,179.999", "-16.5,-179.999", "-16.5,180", "-15.9,180", "-17.2,-179.5", "-16.5,178.5", "-16.5,-178.5"]
        let answers = try await Self.nearest(a, queries, k: 1)
        #expect(try await Self.nearest(b, queries, k: 1) == answers)
        // On the antimeridian inside: 0, not the distance to a seam.
        #expect(answers[2].contains(#""distanceMeters":0}"#), "\(answers[2])")
        #expect(answers[3].contains(#""distanceMeters":0}"#) == false)
    }

    /// Natural Earth writes Antarctica as a ring that runs along ±180° down to the pole and back:
    /// it is the area around the pole, as the same coast written as a ring around it.
    @Test func aRingAlongTheAntimeridianToThePoleIsTheAreaAroundIt() async throws {
        let directory = try makeTemporaryDirectory("places")
        let coast = [(-180.0, -80.0), (-90, -75), (0, -78), (90, -75), (180, -80)]
        let naturalEarth = "[" + (coast + [(180, -90), (-180, -90), (-180, -80)]).map { "[\($0.0),\($0.1)]" }.joined(separator: ",") + "]"
        let aroundPole = "[" + (coast.dropLast() + [(-180, -80)]).map { "[\($0.0),\($0.1)]" }.joined(separator: ",") + "]"
        let a = try Self.write(
            Self.collection([Self.feature(1, "Antarctica", #"{"type":"Polygon","coordinates":[\#(naturalEarth)]}"#)]), "ne.geojson",
            in: directory)
        let b = try Self.write(
            Self.collection([Self.feature(1, "Antarctica", #"{"type":"Polygon","coordinates":[\#(aroundPole)]}"#)]), "pole.geojson",
            in: directory)
        let queries = ["-90,0", "-85,45", "-80.1,179.9", "-80.1,-179.9", "-60,10", "-70,-100", "-76,0"]
        let answers = try await Self.nearest(a, queries, k: 1)
        #expect(try await Self.nearest(b, queries, k: 1) == answers)
        for inside in [0, 1, 2, 3] { #expect(answers[inside].contains(#""distanceMeters":0}"#), "\(answers[inside])") }
        for outside in [4, 5, 6] { #expect(!answers[outside].contains(#""distanceMeters":0}"#), "\(answers[outside])") }
        let landmarks = try await runTool(["landmarks", "--landmarks", a])
        #expect(landmarks.status == 0, "\(landmarks.stderr)")
        #expect(landmarks.stdout.contains("polygon"))
    }

    /// Radius 0 is "inside the area": an enter inside (not in a hole), none outside however near,
    /// and the payload says "0 m".
    @Test func radiusZeroMeansInside() async throws {
        let directory = try makeTemporaryDirectory("places")
        let park =
            #"{"type":"Polygon","coordinates":[[[10,50],[10.1,50],[10.1,50.1],[10,50.1],[10,50]],[[10.04,50.04],[10.06,50.04],[10.06,50.06],[10.04,50.06],[10.04,50.04]]]}"#
        let catalog = try Self.write(
            Self.collection([Self.feature(1, "Park", park, properties: #","isFavorite":true,"radius":0"#)]), "p.geojson", in: directory)
        let fixes = """
            {"device":"in","lat":50.02,"lon":10.02}
            {"device":"lake","lat":50.05,"lon":10.05}
            {"device":"near","lat":50.0,"lon":10.10001}
            {"device":"out","lat":49.9999,"lon":10.05}

            """
        let result = try await runTool(["watch", "--landmarks", catalog, "--format", "ndjson", "-"], stdin: fixes)
        #expect(result.status == 0, "\(result.stderr)")
        let enters = result.stdout.split(separator: "\n").filter { $0.contains(#""event":"enter""#) }
        #expect(enters.count == 1, "\(result.stdout)")
        #expect(enters.first?.contains(#""device":"in""#) == true)
        #expect(enters.first?.contains("You are within 0 m of Park.") == true)
        #expect(enters.first?.contains(#""distanceMeters":0"#) == true)
    }

    /// `landmarks` shows each landmark's kind and its vertex count (closing positions not
    /// counted; a polygon's holes counted with it).
    @Test func landmarksShowsKindsAndVertexCounts() async throws {
        let directory = try makeTemporaryDirectory("places")
        let park =
            #"{"type":"Polygon","coordinates":[[[10,50],[10.1,50],[10.1,50.1],[10,50.1],[10,50]],[[10.04,50.04],[10.06,50.04],[10.05,50.06],[10.04,50.04]]]}"#
        let trail = #"{"type":"MultiLineString","coordinates":[[[10.2,50],[10.3,50.1]],[[10.4,50],[10.5,50],[10.6,50.1]]]}"#
        let point = #"{"type":"Point","coordinates":[10.7,50]}"#
        let catalog = try Self.write(
            Self.collection([Self.feature(1, "Park", park), Self.feature(2, "Trail", trail), Self.feature(3, "Stone", point)]), "k.geojson",
            in: directory)
        let result = try await runTool(["landmarks", "--landmarks", catalog])
        #expect(result.status == 0, "\(result.stderr)")
        let rows = result.stdout.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true).map(String.init) }
        try #require(rows.count == 4, "\(result.stdout)")
        #expect(Array(rows[1][3...4]) == ["polygon", "7"])
        #expect(Array(rows[2][3...4]) == ["line", "5"])
        #expect(Array(rows[3][3...4]) == ["point", "1"])
    }

    struct BadGeometry: CustomTestStringConvertible, Sendable {
        var name: String
        var geometry: String
        /// What the one line about entry 1 (id 2) must hold.
        var says: [String]
        var testDescription: String { name }
    }

    static let badGeometries: [BadGeometry] = [
        BadGeometry(
            name: "self-intersecting ring",
            geometry: #"{"type":"Polygon","coordinates":[[[10,50],[10.1,50.1],[10.1,50],[10,50.1],[10,50]]]}"#,
            says: ["Self-intersection", "latitude 50.05, longitude 10.05"]),
        BadGeometry(
            name: "ring of 3 positions", geometry: #"{"type":"Polygon","coordinates":[[[10,50],[10.1,50],[10,50]]]}"#,
            says: ["3 positions, fewer than 4"]),
        BadGeometry(
            name: "hole outside its shell",
            geometry:
                #"{"type":"Polygon","coordinates":[[[10,50],[10.1,50],[10.1,50.1],[10,50.1],[10,50]],[[11,51],[11.01,51],[11.01,51.01],[11,51]]]}"#,
            says: ["Hole lies outside shell", "latitude 51, longitude 11"]),
        BadGeometry(
            name: "latitude out of range", geometry: #"{"type":"LineString","coordinates":[[10,50],[10.1,95]]}"#,
            says: ["latitude 95 is outside [-90, 90]"]),
        BadGeometry(
            name: "a GeometryCollection", geometry: #"{"type":"GeometryCollection","geometries":[{"type":"Point","coordinates":[1,2]}]}"#,
            says: ["GeometryCollection"]),
    ]

    /// A bad geometry refuses the whole catalog (65), naming entry 1 with id 2, the reason and
    /// where; the good entries are not named.
    @Test(arguments: badGeometries) func aBadGeometryRefusesTheCatalog(_ bad: BadGeometry) async throws {
        let directory = try makeTemporaryDirectory("places")
        let good = #"{"type":"Polygon","coordinates":[[[10,50],[10.1,50],[10.1,50.1],[10,50.1],[10,50]]]}"#
        let catalog = try Self.write(
            Self.collection([Self.feature(1, "Good", good), Self.feature(2, "Bad", bad.geometry), Self.feature(3, "Also good", good)]),
            "bad.geojson", in: directory)
        let result = try await runTool(["watch", "--landmarks", catalog, "--format", "ndjson", "-"], stdin: "")
        #expect(result.status == 65)
        let problems = result.stderr.split(separator: "\n").filter { $0.hasPrefix("  ") || $0.contains("entry ") }
        #expect(problems.count == 1, "\(result.stderr)")
        let line = String(problems.first ?? "")
        #expect(line.contains("entry 1 (id 2)"), "\(line)")
        for fragment in bad.says { #expect(line.contains(fragment), "\(line)") }
        #expect(!result.stderr.contains("entry 0") && !result.stderr.contains("entry 2"))
    }
}
