import Foundation
import Testing

@_spi(Inlining) @testable import LandmarkNearCore
@_spi(Inlining) @testable import LandmarkNearGeodesy

/// Places through the built tool (docs/reference/catalogs.md, engine.md): catalogs with
/// polygons and lines, read from GeoJSON, and the distances `nearest` prints and `watch`
/// decides with, checked against the brute-force references of `GeodesyReference` (nothing
/// but `geod_inverse` and `geod_direct`): within 1.5 mm (the output's millimetre rounding plus
/// the 1 mm the engine promises), and an enter exactly where the reference distance is <= R.
@Suite(.suiteTimeLimit) struct PlacesEndToEndTests {
    static let g = Geodesic.wgs84

    static func uniform(_ range: ClosedRange<Double>, _ random: inout SplitMix64) -> Double {
        range.lowerBound + (range.upperBound - range.lowerBound) * random.unit()
    }

    /// A star-shaped ring of `count` vertices around `center` (a fan of triangles that do not
    /// overlap), `radii` metres out, counterclockwise.
    static func star(around center: Coordinate, count: Int, radii: ClosedRange<Double>, _ random: inout SplitMix64) -> [Coordinate] {
        let step = 360 / Double(count)
        return (0..<count).map { i in
            g.destination(from: center, azimuth: -(Double(i) * step + uniform(0...0.8 * step, &random)), distance: uniform(radii, &random))
        }
    }

    /// One place: its rings or line, and where to throw points at it.
    struct Place: Sendable {
        var shell: [Coordinate]
        var holes: [[Coordinate]] = []
        var isLine = false
        var center: Coordinate
        var reach: Double

        /// The GeoJSON geometry; longitudes as given (beyond 180 where a ring runs past it).
        var geometry: String {
            func position(_ c: Coordinate) -> String { "[\(c.longitude),\(c.latitude)]" }
            func ring(_ r: [Coordinate]) -> String { "[" + (r + [r[0]]).map(position).joined(separator: ",") + "]" }
            if isLine { return #"{"type":"LineString","coordinates":["# + shell.map(position).joined(separator: ",") + "]}" }
            return #"{"type":"Polygon","coordinates":["# + ([shell] + holes).map(ring).joined(separator: ",") + "]}"
        }

        /// The reference distance: 0 inside the area (not in a hole), else to the nearest edge.
        func referenceDistance(_ p: Coordinate) -> (distance: Double, toBoundary: Double) {
            var edges: [(Coordinate, Coordinate)] = []
            for ring in [shell] + holes {
                let count = isLine ? ring.count - 1 : ring.count
                for i in 0..<count { edges.append((ring[i], ring[(i + 1) % ring.count])) }
            }
            let boundary = GeodesyReference.nearest(from: p, edges: edges).distance
            guard !isLine else { return (boundary, boundary) }
            let inside =
                GeodesyReference.Ring(shell).contains(p) && !holes.contains { GeodesyReference.Ring($0).contains(p) }
            return (inside ? 0 : boundary, boundary)
        }
    }

    struct Scenario: CustomTestStringConvertible, Sendable {
        var name: String
        var seed: UInt64
        var make: @Sendable (inout SplitMix64) -> Place
        var testDescription: String { name }
    }

    static let scenarios: [Scenario] = [
        Scenario(name: "a park with a lake in it, 50°N", seed: 101) { r in
            let center = Coordinate(latitude: 50 + uniform(-1...1, &r), longitude: uniform(5...15, &r))
            let hole = star(around: center, count: 7, radii: 800...1_500, &r).reversed()
            return Place(
                shell: star(around: center, count: 12, radii: 4_000...9_000, &r), holes: [Array(hole)], center: center, reach: 14_000)
        },
        Scenario(name: "long edges at 60-70°N (they bulge from the lon/lat segments)", seed: 102) { r in
            let center = Coordinate(latitude: uniform(60...70, &r), longitude: uniform(-150...150, &r))
            return Place(shell: star(around: center, count: 6, radii: 150_000...300_000, &r), center: center, reach: 450_000)
        },
        Scenario(name: "across ±180°, longitudes beyond 180", seed: 103) { r in
            let center = Coordinate(latitude: uniform(-40 ... -10, &r), longitude: 180)
            let ring = star(around: center, count: 8, radii: 20_000...80_000, &r).map { c in
                Coordinate(latitude: c.latitude, longitude: c.longitude < 0 ? c.longitude + 360 : c.longitude)
            }
            return Place(shell: ring, center: center, reach: 120_000)
        },
        Scenario(name: "around the north pole", seed: 104) { r in
            let pole = Coordinate(latitude: 90, longitude: 0)
            return Place(shell: star(around: pole, count: 10, radii: 500_000...900_000, &r), center: pole, reach: 1_200_000)
        },
        Scenario(name: "a trail (a line), 45°S", seed: 105) { r in
            var here = Coordinate(latitude: -45 + uniform(-1...1, &r), longitude: uniform(165...175, &r))
            var line = [here]
            for _ in 0..<8 {
                here = g.destination(from: here, azimuth: uniform(0...90, &r), distance: uniform(2_000...30_000, &r))
                line.append(here)
            }
            return Place(shell: line, isLine: true, center: line[4], reach: 200_000)
        },
    ]

    /// `nearest` prints the reference distance, and `watch --radius R` enters exactly the
    /// devices whose reference distance is at most R.
    @Test(arguments: scenarios) func distancesAndEntersAgreeWithTheReference(_ scenario: Scenario) async throws {
        var random = SplitMix64(seed: scenario.seed)
        let place = scenario.make(&random)
        let directory = try makeTemporaryDirectory("places")
        let catalog = directory.appendingPathComponent("place.geojson").path
        try #"{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"id":7,"name":"Place","isFavorite":true},"geometry":"#
            .appending(place.geometry + "}]}")
            .write(toFile: catalog, atomically: true, encoding: .utf8)
        var points: [Coordinate] = []
        for _ in 0..<30 {
            points.append(
                Self.g.destination(
                    from: place.center, azimuth: Self.uniform(-180...180, &random), distance: place.reach * random.unit().squareRoot()))
        }
        let references = points.map(place.referenceDistance)

        let queries = points.map { "\($0.latitude),\($0.longitude)" }.joined(separator: "\n") + "\n"
        let nearest = try await runTool(["nearest", "--json", "--landmarks", catalog], stdin: queries, timeout: 120)
        #expect(nearest.status == 0, "\(nearest.stderr)")
        let answers = nearest.stdout.split(separator: "\n")
        try #require(answers.count == points.count)
        var compared = 0
        for (i, answer) in answers.enumerated() where references[i].toBoundary > 0.01 {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(answer.utf8)) as? [String: Any])
            let first = try #require((object["nearest"] as? [[String: Any]])?.first)
            let distance = try #require(first["distanceMeters"] as? Double)
            #expect(
                abs(distance - references[i].distance) <= 0.0015, "point \(points[i]): \(distance) m, reference \(references[i].distance) m"
            )
            compared += 1
        }
        #expect(compared >= 25)

        // R: the median distance of the outside points, so that some are within and some not.
        let outside = references.map(\.distance).filter { $0 > 0 }.sorted()
        let radius = outside.isEmpty ? 1_000 : (outside[outside.count / 2] * 1_000).rounded() / 1_000 + 0.0005
        let fixes = points.enumerated().map { #"{"device":"d\#($0.offset)","lat":\#($0.element.latitude),"lon":\#($0.element.longitude)}"# }
        let watch = try await runTool(
            ["watch", "--landmarks", catalog, "--radius", "\(radius)m", "--format", "ndjson", "-"],
            stdin: fixes.joined(separator: "\n") + "\n", timeout: 120)
        #expect(watch.status == 0, "\(watch.stderr)")
        let entered = Set(
            watch.stdout.split(separator: "\n").compactMap { line -> Int? in
                guard line.contains(#""event":"enter""#), let range = line.range(of: #""device":"d(\d+)""#, options: .regularExpression)
                else {
                    return nil
                }
                return Int(line[range].dropFirst(11).dropLast())
            })
        for (i, reference) in references.enumerated() where abs(reference.distance - radius) > 0.002 {
            #expect(entered.contains(i) == (reference.distance <= radius), "point \(points[i]) at \(reference.distance) m, R = \(radius) m")
        }
    }
}
