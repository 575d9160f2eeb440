import Foundation
import Testing

@_spi(Inlining) @testable import LandmarkNearCore
@testable import LandmarkNearOutputs

/// Runs for the map tests: the quick start's road trip, a ship across ±180°, a sled over the
/// North Pole, and a device whose name tries to break out of the page.
struct MapRun: Sendable, CustomTestStringConvertible {
    var name: String
    /// Arguments before the inputs (catalog, radius, ...), relative to the run's directory.
    var options: [String]
    /// Files written into the run's directory: name -> contents.
    var files: [String: String]
    var inputs: [String]
    var devices: [String]
    var favourites: Int
    var notified: Int
    var testDescription: String { name }

    typealias Point = (device: String, lat: Double, lon: Double, seconds: Int)

    static func ndjson(_ fixes: [Point]) -> String {
        var out = ""
        for f in fixes {
            let time = 1_777_636_800 + f.seconds
            out += "{\"device\":" + JSONWriter.quoted(f.device) + ",\"lat\":\(f.lat),\"lon\":\(f.lon),\"time\":\(time)}\n"
        }
        return out
    }

    static let roadTrip = MapRun(
        name: "road-trip", options: [], files: [:],
        inputs: [repositoryRoot.appendingPathComponent("Samples/road-trip.nmea").path],
        devices: ["default"], favourites: 3, notified: 2)

    /// 101 fixes from 179°E to 179°W along 10°N; a favourite reef on the antimeridian.
    static let antimeridian: MapRun = {
        let fixes: [Point] = (0...100).map { i in
            let lat = 10.0 + Double(i) * 0.001
            let lon = GeodesicCircle.wrapped(179.0 + Double(i) * 0.02)
            return (device: "ship", lat: lat, lon: lon, seconds: i * 60)
        }
        let catalog =
            #"[{"id":1,"name":"Dateline Reef","coordinates":{"latitude":10.05,"longitude":180},"isFavorite":true},"#
            + #"{"id":2,"name":"Elsewhere","coordinates":{"latitude":-40,"longitude":20},"isFavorite":false}]"#
        return MapRun(
            name: "antimeridian", options: ["--landmarks", "reef.json", "--radius", "20km", "--events", "all"],
            files: ["reef.json": catalog, "ship.ndjson": ndjson(fixes)], inputs: ["ship.ndjson"],
            devices: ["ship"], favourites: 1, notified: 1)
    }()

    /// Up lon 0° to 89.99°N, then down lon 180°; a camp 5.6 km from the pole, radius 10 km.
    static let polar: MapRun = {
        var fixes: [Point] = []
        for i in 0...49 { fixes.append((device: "sled", lat: 89.5 + Double(i) * 0.01, lon: 0.0, seconds: i * 60)) }
        for i in 0...49 { fixes.append((device: "sled", lat: 89.99 - Double(i) * 0.01, lon: 180.0, seconds: 3_000 + i * 60)) }
        let catalog = #"[{"id":7,"name":"Pole Camp","coordinates":{"latitude":89.95,"longitude":45},"isFavorite":true}]"#
        return MapRun(
            name: "polar", options: ["--landmarks", "camp.json", "--radius", "10km", "--events", "all"],
            files: ["camp.json": catalog, "sled.ndjson": ndjson(fixes)], inputs: ["sled.ndjson"],
            devices: ["sled"], favourites: 1, notified: 1)
    }()

    static let hostileName = #"</script><script>alert(1)</script><img src=x onerror="alert(2)">&amp; <!-- "#

    /// Two devices pass Turtle Rock; one is named to break out of the page.
    static let hostile: MapRun = {
        var fixes: [Point] = []
        for i in 0...40 {
            let lat = 33.9 + Double(i) * 0.005
            fixes.append((device: hostileName, lat: lat, lon: -116.17, seconds: i * 30))
            fixes.append((device: "plain", lat: lat, lon: -116.15, seconds: i * 30))
        }
        return MapRun(
            name: "hostile-device-name", options: [], files: ["fixes.ndjson": ndjson(fixes)], inputs: ["fixes.ndjson"],
            devices: [hostileName, "plain"], favourites: 3, notified: 2)
    }()

    static let all = [roadTrip, antimeridian, polar, hostile]

    /// A hiker walks east along 34.02°N through a park with a pond (a Polygon with a hole,
    /// radius 300 m), past Turtle Rock (a Point, the run's 1 km) and across a trail (a
    /// LineString, radius 200 m). Not in `all`: its radius features are outlines, not circles.
    static let places: MapRun = {
        let fixes: [Point] = (0..<60).map { i in (device: "hiker", lat: 34.02, lon: -116.22 + Double(i) * 0.003, seconds: i * 60) }
        return MapRun(
            name: "places", options: ["--landmarks", "places.geojson", "--radius", "1km", "--events", "all"],
            files: ["places.geojson": placesCatalog, "hike.ndjson": ndjson(fixes)], inputs: ["hike.ndjson"],
            devices: ["hiker"], favourites: 3, notified: 3)
    }()

    static let placesCatalog = """
        {"type":"FeatureCollection","features":[
        {"type":"Feature","properties":{"id":1,"name":"Lake Park","isFavorite":true,"radius":"300m"},"geometry":{"type":"Polygon",\
        "coordinates":[[[-116.20,34.00],[-116.15,34.00],[-116.15,34.04],[-116.20,34.04],[-116.20,34.00]],\
        [[-116.185,34.01],[-116.185,34.03],[-116.165,34.03],[-116.165,34.01],[-116.185,34.01]]]}},
        {"type":"Feature","properties":{"id":2,"name":"Ridge Trail","isFavorite":true,"radius":"200m"},"geometry":{"type":"LineString",\
        "coordinates":[[-116.12,34.00],[-116.10,34.02],[-116.08,34.01],[-116.05,34.05]]}},
        {"type":"Feature","properties":{"id":3,"name":"Turtle Rock","isFavorite":true},"geometry":{"type":"Point","coordinates":[-116.166868,34.011286]}}
        ]}
        """

    /// Writes the files into `directory` and runs `landmark-near map` there.
    func draw(in directory: URL, extra: [String] = []) async throws -> ToolResult {
        for (name, contents) in files {
            try Data(contents.utf8).write(to: directory.appendingPathComponent(name))
        }
        return try await runTool(
            ["map"] + inputs + options + ["--out", "\(name).html", "--geojson", "\(name).geojson"] + extra,
            currentDirectory: directory)
    }
}
