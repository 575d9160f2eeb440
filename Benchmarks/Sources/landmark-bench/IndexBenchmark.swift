#if canImport(Glibc)
import Glibc
#endif
import Foundation
import LandmarkNear

/// Times `LandmarkIndex` on a catalog (issue 5's targets: exact nearest <= 1 µs and exact
/// within-5-mi <= 0.5 µs per query, index memory <= 64 bytes per landmark) and returns one
/// report line per figure.
///
/// Queries come from a seeded generator: `uniform` points are uniform on the sphere (mostly
/// far from any landmark), `nearLandmarks` points lie up to 10 km from a random landmark.
///
///     for line in runIndexBenchmark(catalogPath: "../shared/data/cities.csv") { print(line) }
func runIndexBenchmark(catalogPath: String, queries: Int = 200_000) -> [String] {
    guard let coordinates = indexBenchmarkCoordinates(catalogPath) else {
        return ["index: cannot read \(catalogPath)"]
    }
    var lines: [String] = []

    let residentBefore = IndexBenchmarkClock.residentBytes()
    let started = IndexBenchmarkClock.now()
    let index = LandmarkIndex(coordinates: coordinates)
    let buildSeconds = IndexBenchmarkClock.now() - started
    let residentAfter = IndexBenchmarkClock.residentBytes()
    let bytesPerLandmark = Double(residentAfter - residentBefore) / Double(max(1, index.count))
    lines.append(String(format: "index: %d landmarks, built in %.3f s, %.1f bytes per landmark (resident memory grew by %.1f)",
                        index.count, buildSeconds, Double(index.approximateByteCount) / Double(max(1, index.count)),
                        bytesPerLandmark))

    var state: UInt64 = 0x5EED
    func random() -> Double {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return Double(state >> 11) / Double(1 << 53)
    }
    let uniform = (0..<queries).map { _ in
        Coordinate(latitude: asin(2 * random() - 1) * 180 / .pi, longitude: 360 * random() - 180)
    }
    let nearLandmarks = (0..<queries).map { _ in
        let landmark = coordinates[Int(random() * Double(coordinates.count)) % coordinates.count]
        return Geodesic.wgs84.destination(from: landmark, azimuth: 360 * random() - 180, distance: 10_000 * random())
    }

    for (name, points) in [("uniform", uniform), ("nearLandmarks", nearLandmarks)] {
        var found = 0
        var t0 = IndexBenchmarkClock.now()
        for point in points { found += index.within(8046.72, of: point).count }
        let within = (IndexBenchmarkClock.now() - t0) / Double(points.count)
        lines.append(String(format: "index: within 5mi, %@ points: %.3f µs per query (%.3f answers per query)",
                            name, within * 1e6, Double(found) / Double(points.count)))
        var total = 0.0
        t0 = IndexBenchmarkClock.now()
        for point in points { total += index.nearest(to: point, limit: 1).first?.distance ?? 0 }
        let nearest = (IndexBenchmarkClock.now() - t0) / Double(points.count)
        lines.append(String(format: "index: nearest k=1, %@ points: %.3f µs per query (mean distance %.0f m)",
                            name, nearest * 1e6, total / Double(points.count)))
        t0 = IndexBenchmarkClock.now()
        for point in points { total += Geodesic.wgs84.distance(from: point, to: coordinates[0]) }
        let geodesic = (IndexBenchmarkClock.now() - t0) / Double(points.count)
        lines.append(String(format: "index: (one geodesic distance, %@ points to landmark 0: %.3f µs)",
                            name, geodesic * 1e6))
    }
    return lines
}

/// Compares `LandmarkIndex` with a full brute-force scan (a geodesic to every landmark) on
/// `queries` seeded points — a quarter each anywhere, within 1° of the poles, within 1° of ±180°
/// and within 20 km of a landmark — with k in 1...5 and radii of 5 mi, 50 km or up to 300 km.
/// Too slow for the debug test suite on the full 144,563 places (0.15 s a query), hence here.
///
///     runIndexExactnessCheck(catalogPath: "../shared/data/cities.csv", queries: 240)
///     // ["index: exactness at full scale: 240 queries over 144563 landmarks, 0 mismatches"]
func runIndexExactnessCheck(catalogPath: String, queries: Int) -> [String] {
    guard let coordinates = indexBenchmarkCoordinates(catalogPath) else {
        return ["index: cannot read \(catalogPath)"]
    }
    let index = LandmarkIndex(coordinates: coordinates)
    var state: UInt64 = 0xC0FFEE
    func random() -> Double {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return Double(state >> 11) / Double(1 << 53)
    }
    var lines: [String] = []
    for query in 0..<queries {
        let side: Double = random() < 0.5 ? 1 : -1
        let point: Coordinate
        switch query % 4 {
        case 0: point = Coordinate(latitude: asin(2 * random() - 1) * 180 / .pi, longitude: 360 * random() - 180)
        case 1: point = Coordinate(latitude: side * (90 - random()), longitude: 360 * random() - 180)
        case 2: point = Coordinate(latitude: asin(2 * random() - 1) * 180 / .pi, longitude: side * (180 - random()))
        default:
            let landmark = coordinates[Int(random() * Double(coordinates.count)) % coordinates.count]
            point = Geodesic.wgs84.destination(from: landmark, azimuth: 360 * random() - 180, distance: 20_000 * random())
        }
        let all = coordinates.indices.map {
            LandmarkNeighbor(index: $0, distance: Geodesic.wgs84.distance(from: point, to: coordinates[$0]))
        }.sorted(by: LandmarkNeighbor.precedes)
        let limit = 1 + Int(random() * 5)
        let radius: Double = [8046.72, 50_000, random() * 300_000][query % 3]
        if index.nearest(to: point, limit: limit) != Array(all.prefix(limit)) {
            lines.append("index: MISMATCH nearest(to: \(point), limit: \(limit))")
        }
        if index.within(radius, of: point) != all.filter({ $0.distance <= radius }) {
            lines.append("index: MISMATCH within(\(radius), of: \(point))")
        }
    }
    lines.append("index: exactness at full scale: \(queries) queries over \(coordinates.count) landmarks, \(lines.count) mismatches")
    return lines
}

/// The valid `lat,lon,...` rows of a CSV file, read leniently: only the coordinates matter
/// here, and cities.csv has two nameless places, which a catalog refuses.
private func indexBenchmarkCoordinates(_ path: String) -> [Coordinate]? {
    guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
    return text.split(whereSeparator: \.isNewline).dropFirst().compactMap { line in
        let fields = line.split(separator: ",", maxSplits: 2, omittingEmptySubsequences: false)
        guard fields.count >= 2, let lat = Double(fields[0]), let lon = Double(fields[1]) else { return nil }
        let coordinate = Coordinate(latitude: lat, longitude: lon)
        return coordinate.isValid ? coordinate : nil
    }
}

enum IndexBenchmarkClock {
    /// Resident set size from /proc/self/statm, bytes.
    static func residentBytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    static func now() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) * 1e-9
    }
}
