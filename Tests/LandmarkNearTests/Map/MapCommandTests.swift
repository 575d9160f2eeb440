import Foundation
import Testing

@_spi(Inlining) @testable import LandmarkNearCore
@_spi(Inlining) @testable import LandmarkNearGeodesy

#if canImport(Glibc)
import Glibc
#endif

/// `landmark-near map` and `watch --geojson` run as processes: the GeoJSON they write.
@Suite(.suiteTimeLimit) struct MapCommandTests {
    /// The features of a GeoJSON file grouped by their `kind` property.
    struct Features {
        var all: [JSONValue]
        init(_ text: String) throws { all = try JSONParser.parse(text)["features"]?.arrayValue ?? [] }
        func kind(_ kind: String) -> [JSONValue] { all.filter { $0["properties"]?["kind"]?.stringValue == kind } }
    }

    private func position(_ value: JSONValue?) -> Coordinate? {
        guard let a = value?.arrayValue, a.count >= 2, let lon = a[0].doubleValue, let lat = a[1].doubleValue else { return nil }
        return Coordinate(latitude: lat, longitude: lon)
    }

    private func drawn(_ run: MapRun, extra: [String] = []) async throws -> (ToolResult, Features, String) {
        let directory = try makeTemporaryDirectory("map")
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try await run.draw(in: directory, extra: extra)
        let text = (try? String(contentsOf: directory.appendingPathComponent("\(run.name).geojson"), encoding: .utf8)) ?? ""
        return (result, try Features(text), text)
    }

    @Test(arguments: MapRun.all) func theGeoJSONIsValidAndHoldsTheRun(_ run: MapRun) async throws {
        let (result, features, text) = try await drawn(run)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(GeoJSONCheck.problems(in: text) == [])
        #expect(features.kind("radius").count == run.favourites)
        #expect(features.kind("favorite").count == run.favourites)
        #expect(features.kind("track").compactMap { $0["properties"]?["device"]?.stringValue } == run.devices)
        let events = features.kind("event")
        #expect(events.filter { $0["properties"]?["notified"]?.boolValue == true }.count == run.notified)
        for event in events {
            let p = event["properties"]
            #expect(["enter", "exit"].contains(p?["event"]?.stringValue ?? ""))
            #expect(run.devices.contains(p?["device"]?.stringValue ?? ""))
            #expect(p?["landmark"]?.stringValue?.isEmpty == false)
            #expect(p?["time"]?.stringValue.flatMap { Timestamp(rfc3339: $0) } != nil)
            #expect((p?["distanceMeters"]?.doubleValue ?? -1) >= 0)
            #expect(p?["notified"]?.boolValue != nil)
            #expect(event["geometry"]?["type"]?.stringValue == "Point")
        }
        // Each circle around its own landmark, every vertex at the radius within 1 mm.
        let centres = Dictionary(
            features.kind("favorite").compactMap { f -> (Int, Coordinate)? in
                guard let index = f["properties"]?["landmarkIndex"]?.integer, let c = position(f["geometry"]?["coordinates"]) else {
                    return nil
                }
                return (index, c)
            }, uniquingKeysWith: { a, _ in a })
        for circle in features.kind("radius") {
            let centre = try #require(centres[circle["properties"]?["landmarkIndex"]?.integer ?? -1])
            let radius = try #require(circle["properties"]?["radiusMeters"]?.doubleValue)
            let geometry = circle["geometry"]
            let polygons =
                geometry?["type"]?.stringValue == "Polygon"
                ? [geometry?["coordinates"]] : (geometry?["coordinates"]?.arrayValue ?? []).map(Optional.some)
            var vertices = 0
            for polygon in polygons {
                for vertex in (polygon?.arrayValue?.first?.arrayValue ?? []).compactMap(position) where abs(vertex.latitude) < 90 {
                    #expect(abs(Geodesic.wgs84.distance(from: centre, to: vertex) - radius) <= 0.001)
                    vertices += 1
                }
            }
            #expect(vertices >= 64)
        }
    }

    @Test func theRoadTripIsTwoDrivesThreeCirclesAndTwoNotifications() async throws {
        let (result, features, _) = try await drawn(.roadTrip)
        #expect(result.status == 0)
        #expect(result.stderr.contains("drew 500 of 500 used fixes, 3 favourite circles, 4 events"))
        let track = try #require(features.kind("track").first)
        #expect(track["geometry"]?["type"]?.stringValue == "MultiLineString")
        #expect(track["geometry"]?["coordinates"]?.arrayValue?.count == 2)
        #expect(
            features.kind("radius").compactMap { $0["properties"]?["landmark"]?.stringValue } == [
                "Turtle Rock", "Chilkoot Trail", "St. Mary Lake",
            ])
        let notified = features.kind("event").filter { $0["properties"]?["notified"]?.boolValue == true }
        #expect(notified.compactMap { $0["properties"]?["landmark"]?.stringValue } == ["Turtle Rock", "St. Mary Lake"])
        #expect(features.kind("event").filter { $0["properties"]?["event"]?.stringValue == "exit" }.count == 2)
    }

    @Test func theShipsTrackAndTheReefsCircleAreSplitAtTheAntimeridian() async throws {
        let (_, features, _) = try await drawn(.antimeridian)
        let lines = try #require(features.kind("track").first?["geometry"]?["coordinates"]?.arrayValue)
        #expect(lines.count == 2)
        let end = try #require(position(lines[0].arrayValue?.last))
        let start = try #require(position(lines[1].arrayValue?.first))
        #expect(end.longitude == 180 && start.longitude == -180 && end.latitude == start.latitude)
        #expect(abs(end.latitude - 10.05) < 1e-9)
        let circle = try #require(features.kind("radius").first)
        #expect(circle["geometry"]?["type"]?.stringValue == "MultiPolygon")
        #expect(features.kind("event").compactMap { $0["properties"]?["event"]?.stringValue } == ["enter", "exit"])
    }

    @Test func theCampsCircleIsClosedAroundTheNorthPole() async throws {
        let (_, features, _) = try await drawn(.polar)
        let circle = try #require(features.kind("radius").first)
        #expect(circle["properties"]?["enclosesPole"]?.stringValue == "north")
        #expect(circle["geometry"]?["type"]?.stringValue == "Polygon")
        let ring = (circle["geometry"]?["coordinates"]?.arrayValue?.first?.arrayValue ?? []).compactMap(position)
        #expect(ring.contains(Coordinate(latitude: 90, longitude: 180)) && ring.contains(Coordinate(latitude: 90, longitude: -180)))
        #expect(features.kind("event").compactMap { $0["properties"]?["event"]?.stringValue } == ["enter", "exit"])
    }

    @Test func aPlacesCatalogGivesEachPlaceAndItsOutline() async throws {
        let (result, features, text) = try await drawn(.places)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("drew 60 of 60 used fixes, 1 favourite circle, 2 place outlines, "))
        #expect(GeoJSONCheck.problems(in: text) == [])
        #expect(features.kind("radius").count == 3 && features.kind("favorite").count == 3)
        let places = features.kind("place")
        #expect(places.compactMap { $0["properties"]?["shape"]?.stringValue } == ["polygon", "line"])
        #expect(places.compactMap { $0["geometry"]?["type"]?.stringValue } == ["Polygon", "LineString"])
        #expect(places.first?["geometry"]?["coordinates"]?.arrayValue?.count == 2, "the park and its pond")
        // Every vertex of each outline at the place's radius from the place, within 0.1 %.
        for place in places {
            let index = place["properties"]?["landmarkIndex"]?.integer
            let outline = try #require(features.kind("radius").first { $0["properties"]?["landmarkIndex"]?.integer == index })
            let radius = try #require(outline["properties"]?["radiusMeters"]?.doubleValue)
            let geometry = place["geometry"]
            let positions = { (value: JSONValue?) in (value?.arrayValue ?? []).compactMap(self.position) }
            let shape: LandmarkShape =
                geometry?["type"]?.stringValue == "Polygon"
                ? .areas([(geometry?["coordinates"]?.arrayValue ?? []).map(positions)]) : .lines([positions(geometry?["coordinates"])])
            let measured = try #require(GeodesicShape(shape))
            #expect(outline["geometry"]?["type"]?.stringValue == "Polygon")
            let rings = (outline["geometry"]?["coordinates"]?.arrayValue ?? []).map(positions)
            #expect(rings.count == (shape.kind == .polygon ? 2 : 1), "the pond is wider than twice the radius: a hole")
            #expect(rings.joined().count >= 64)
            for vertex in rings.joined() {
                #expect(abs(measured.distance(from: vertex) - radius) <= 0.001 * radius)
            }
        }
    }

    @Test func mapPrintsWhatWatchPrintsAndWatchWritesTheSameGeoJSON() async throws {
        let directory = try makeTemporaryDirectory("map")
        defer { try? FileManager.default.removeItem(at: directory) }
        let sample = repositoryRoot.appendingPathComponent("Samples/road-trip.nmea").path
        let map = try await runTool(
            ["map", sample, "--events", "all", "--cooldown", "30m", "--geojson", "a.geojson"], currentDirectory: directory)
        let watch = try await runTool(
            ["watch", sample, "--events", "all", "--cooldown", "30m", "--geojson", "b.geojson"], currentDirectory: directory)
        #expect(map.status == 0 && watch.status == 0)
        #expect(map.stdout == watch.stdout)
        #expect(map.stdout.split(separator: "\n").count == 4)
        let a = try Data(contentsOf: directory.appendingPathComponent("a.geojson"))
        let b = try Data(contentsOf: directory.appendingPathComponent("b.geojson"))
        #expect(a == b && !a.isEmpty)
    }

    @Test func anEmptyRunAndASingleFixStillMakeValidGeoJSON() async throws {
        let directory = try makeTemporaryDirectory("map")
        defer { try? FileManager.default.removeItem(at: directory) }
        let empty = try await runTool(["map", "--geojson", "empty.geojson", "--out", "empty.html"], stdin: "", currentDirectory: directory)
        #expect(empty.status == 0)
        let emptyText = try String(contentsOf: directory.appendingPathComponent("empty.geojson"), encoding: .utf8)
        #expect(GeoJSONCheck.problems(in: emptyText) == [])
        #expect(try Features(emptyText).kind("radius").count == 3)
        let one = try await runTool(
            ["map", "--geojson", "one.geojson", "--favorites", "all"], stdin: #"{"device":"one","lat":34.0,"lon":-116.1}"# + "\n",
            currentDirectory: directory)
        #expect(one.status == 0)
        let oneText = try String(contentsOf: directory.appendingPathComponent("one.geojson"), encoding: .utf8)
        #expect(GeoJSONCheck.problems(in: oneText) == [])
        let features = try Features(oneText)
        #expect(features.kind("track").first?["geometry"]?["type"]?.stringValue == "Point")
        #expect(features.kind("radius").count == 12)
        #expect(features.kind("event").first?["properties"]?["time"]?.isNull == true)
    }

    @Test(arguments: [(SIGINT, Int32(130)), (SIGTERM, Int32(143))])
    func aLiveMapStoppedByASignalDrawsWhatWasDecided(_ signal: Int32, _ status: Int32) async throws {
        let directory = try makeTemporaryDirectory("map")
        defer { try? FileManager.default.removeItem(at: directory) }
        let tool = try LiveTool(
            ["map", "--format", "ndjson", "--out", "live.html", "--geojson", "live.geojson"], currentDirectory: directory)
        // A car drives up to Turtle Rock: one notification, then the signal.
        tool.write(MapRun.ndjson((0...30).map { i in (device: "car", lat: 33.85 + Double(i) * 0.005, lon: -116.166868, seconds: i * 10) }))
        #expect(tool.waitForStdoutLines(1))
        tool.waitUntilInputDrained()
        tool.signal(signal)
        #expect(tool.wait() == status)
        let text = try String(contentsOf: directory.appendingPathComponent("live.geojson"), encoding: .utf8)
        #expect(GeoJSONCheck.problems(in: text) == [])
        let features = try Features(text)
        #expect(features.kind("track").first?["properties"]?["fixes"]?.integer == 31)
        #expect(features.kind("event").count == 1)
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("live.html").path))
    }

    static let statusCases: [StatusCase] = [
        StatusCase(["map", "Samples/road-trip.nmea"], 64),  // nowhere to draw
        StatusCase(["map", "Samples/road-trip.nmea", "--out"], 64),
        StatusCase(["map", "Samples/road-trip.nmea", "--out", "x.html", "--bogus"], 64),
        StatusCase(["map", "no-such-file.nmea", "--out", "x.html"], 66),
        StatusCase(["map", "Samples/road-trip.nmea", "--out", "/nonexistent-dir/x.html"], 74),
        StatusCase(["watch", "Samples/road-trip.nmea", "--geojson", "/nonexistent-dir/x.geojson"], 74),
    ]

    @Test(arguments: statusCases) func exitStatuses(_ c: StatusCase) async throws {
        let result = try await runTool(c.arguments, currentDirectory: repositoryRoot)
        #expect(result.status == c.status, "\(result.stderr)")
        #expect(!result.stderr.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: repositoryRoot.appendingPathComponent("x.html").path))
    }
}
