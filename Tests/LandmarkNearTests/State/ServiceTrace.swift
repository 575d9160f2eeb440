import Foundation

@_spi(Inlining) @testable import LandmarkNearCore

/// A timed NDJSON trace for the restart, crash and signal tests: devices (odd names
/// included) that go in and out of Turtle Rock and St. Mary Lake, one step every 150 s, so
/// that with `--cooldown 5m` every enter notifies.
enum ServiceTrace {
    static let devices = ["car", "a/b", "a_b", "caf\u{E9}", "cafe\u{301}", "bike.2"]
    static let options = ["--format", "ndjson", "--cooldown", "5m"]

    static func lines(fixes: Int, devices deviceCount: Int = devices.count) -> [String] {
        let landmarks = [LandmarkCatalog.embedded[0].coordinate, LandmarkCatalog.embedded[3].coordinate]
        return (0..<fixes).map { i in
            let device = devices[i % deviceCount]
            let step = i / deviceCount
            let landmark = landmarks[(step / 2 + i % deviceCount) % 2]
            let point =
                step % 2 == 0
                ? EngineFixtures.point(Double(100 + (i * 37) % 5000), from: landmark, azimuth: Double((i * 53) % 360))
                : EngineFixtures.point(20_000, from: landmark)
            let time = Timestamp(seconds: 1_777_636_800 + Int64(i) * 150, nanoseconds: i % 3 == 0 ? 250_000_000 : 0)
            return "{\"device\":\(JSONWriter.quoted(device)),\"lat\":\(JSONWriter.number(point.latitude)),"
                + "\"lon\":\(JSONWriter.number(point.longitude)),\"time\":\"\(time.rfc3339)\"}\n"
        }
    }

    /// File name -> contents of every file in `directory` (hidden ones included).
    static func files(in directory: URL) -> [String: Data] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        var files: [String: Data] = [:]
        for name in names {
            files[name] = FileManager.default.contents(atPath: directory.appendingPathComponent(name).path) ?? Data()
        }
        return files
    }

    static func lines(of text: String) -> [String] { text.split(separator: "\n").map(String.init) }
}
