import Foundation
import Testing

@_spi(Inlining) @testable import LandmarkNearCore
@_spi(Inlining) @testable import LandmarkNearGeodesy

/// Places from real data: Natural Earth's 1:110m countries (public domain; the shapefile that
/// geopandas 0.14 ships, turned into a catalog by Tests/Counterparts/naturalearth.py). They hold
/// what real files write: Fiji and Russia split at ±180°, Antarctica as a ring along ±180° down
/// to the pole, South Africa with Lesotho as a hole.
@Suite(.suiteTimeLimit) struct NaturalEarthPlacesTests {
    /// The catalog, made once per test (the counterpart takes about a second).
    static func catalog() async throws -> (path: String, features: [[String: Any]]) {
        let directory = try makeTemporaryDirectory("naturalearth")
        let path = directory.appendingPathComponent("countries.geojson").path
        let made = try await runCounterpart("naturalearth.py", [path])
        try #require(made.status == 0, "\(made.stderr)")
        let root = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
        return (path, try #require(root["features"] as? [[String: Any]]))
    }

    /// The rings (or lines) of a feature's geometry, as coordinates.
    static func rings(of feature: [String: Any]) throws -> [[Coordinate]] {
        let geometry = try #require(feature["geometry"] as? [String: Any])
        let polygons: [Any]
        switch geometry["type"] as? String {
        case "Polygon": polygons = [geometry["coordinates"] as Any]
        case "MultiPolygon": polygons = try #require(geometry["coordinates"] as? [Any])
        default: polygons = []
        }
        return try polygons.flatMap { polygon in
            try #require(polygon as? [[[Double]]]).map { ring in ring.dropLast().map { Coordinate(latitude: $0[1], longitude: $0[0]) } }
        }
    }

    static func name(_ feature: [String: Any]) -> String {
        (feature["properties"] as? [String: Any])?["name"] as? String ?? ""
    }

    /// `nearest -k K --json`, one parsed answer a query: (name, distance) nearest first.
    static func nearest(_ catalog: String, _ queries: [String], k: Int) async throws -> [[(name: String, distance: Double)]] {
        let result = try await runTool(
            ["nearest", "-k", "\(k)", "--json", "--landmarks", catalog], stdin: queries.joined(separator: "\n") + "\n")
        #expect(result.status == 0, "\(result.stderr)")
        return try result.stdout.split(separator: "\n").map { line in
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            return try #require(object["nearest"] as? [[String: Any]]).map {
                ($0["name"] as? String ?? "", $0["distanceMeters"] as? Double ?? .nan)
            }
        }
    }

    /// All 177 countries load as polygons, and each country's point (what `landmarks` shows) is
    /// inside it: `nearest` answers that country at 0 m.
    @Test func everyCountryLoadsAndHoldsItsOwnPoint() async throws {
        let (path, features) = try await Self.catalog()
        #expect(features.count == 177)
        let listing = try await runTool(["landmarks", "--json", "--landmarks", path])
        #expect(listing.status == 0, "\(listing.stderr)")
        let rows = try listing.stdout.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
        try #require(rows.count == 177)
        #expect(rows.allSatisfy { $0["kind"] as? String == "polygon" })
        let queries = rows.map { "\($0["latitude"] as? Double ?? .nan),\($0["longitude"] as? Double ?? .nan)" }
        let answers = try await Self.nearest(path, queries, k: 1)
        try #require(answers.count == 177)
        for (row, answer) in zip(rows, answers) {
            #expect(answer.first?.name == row["name"] as? String && answer.first?.distance == 0, "\(row["name"] ?? ""): \(answer)")
        }
    }

    /// Where real files are hardest: a hole (Maseru, in Lesotho, is outside South Africa by the
    /// distance to Lesotho's border), the pole inside Antarctica, both sides of ±180° inside
    /// Russia, and a point off Fiji's coasts across the antimeridian: distances against the
    /// brute-force reference within 1.5 mm.
    @Test func holesTheAntimeridianAndThePoleOnRealData() async throws {
        let (path, features) = try await Self.catalog()
        func feature(_ name: String) throws -> [String: Any] { try #require(features.first { Self.name($0) == name }) }
        let answers = try await Self.nearest(path, ["-29.31,27.48", "-90,0", "65.5,179.99", "65.5,-179.99", "-16.8,179.9"], k: 2)
        try #require(answers.count == 5)

        #expect(answers[0].first?.name == "Lesotho" && answers[0].first?.distance == 0, "\(answers[0])")
        #expect(answers[0].last?.name == "South Africa", "\(answers[0])")
        let maseru = Coordinate(latitude: -29.31, longitude: 27.48)
        let southAfrica = try Self.rings(of: try feature("South Africa"))
        #expect(southAfrica.count >= 2, "South Africa has Lesotho as a hole")
        let edges = southAfrica.flatMap { ring in ring.indices.map { (ring[$0], ring[($0 + 1) % ring.count]) } }
        let border = GeodesyReference.nearest(from: maseru, edges: edges).distance
        #expect(abs((answers[0].last?.distance ?? .nan) - border) <= 0.0015, "\(answers[0]), reference \(border) m")

        #expect(answers[1].first?.name == "Antarctica" && answers[1].first?.distance == 0, "\(answers[1])")
        for side in [2, 3] { #expect(answers[side].first?.name == "Russia" && answers[side].first?.distance == 0, "\(answers[side])") }

        let offFiji = Coordinate(latitude: -16.8, longitude: 179.9)
        let fiji = try Self.rings(of: try feature("Fiji"))
        let fijiEdges = fiji.flatMap { ring in ring.indices.map { (ring[$0], ring[($0 + 1) % ring.count]) } }
        // Fiji's parts meet along ±180°: the seam is not a coast, so the reference leaves out
        // the edges that run along the meridian.
        let coasts = fijiEdges.filter { !(abs($0.0.longitude) == 180 && abs($0.1.longitude) == 180) }
        let coast = GeodesyReference.nearest(from: offFiji, edges: coasts).distance
        #expect(answers[4].first?.name == "Fiji", "\(answers[4])")
        #expect(abs((answers[4].first?.distance ?? .nan) - coast) <= 0.0015, "\(answers[4]), reference \(coast) m")
    }
}
