import Foundation
import Testing

/// Issue 43: output is linear in its input, whatever the input holds. Each case is one input of
/// about 1 MiB made of what needs escaping (backslashes, quotes, `<`, control characters), which
/// the quadratic escaping of old took from seconds to minutes to print; each must now be done
/// well under 5 s, in a debug build, as a process.
@Suite("hostile input: output in linear time", .suiteTimeLimit)
struct LinearOutputTests {
    /// Generous for a debug build on a loaded 2-core machine; the release build takes a few
    /// tens of milliseconds for each (Benchmarks/LOG.md).
    static let bound: Double = 5
    static let megabyte = 1 << 20

    /// Runs the tool and its time; killed (and failed) after 60 s.
    private func timed(_ arguments: [String], stdin: Data? = nil, in directory: URL? = nil) async throws -> (ToolResult, Double) {
        let start = Date()
        let result = try await runTool(arguments, stdinData: stdin, currentDirectory: directory, timeout: 60)
        return (result, Date().timeIntervalSince(start))
    }

    @Test func watchPrintsAMegabyteOfBackslashesInADeviceName() async throws {
        let name = String(repeating: "\\\\", count: 260_000)  // 520,000 backslashes in the JSON text
        let line = "{\"device\":\"\(name)\",\"lat\":34.0495933,\"lon\":-116.0931883}\n"
        let (result, seconds) = try await timed(["watch", "--favorites", "all", "--explain"], stdin: Data(line.utf8))
        #expect(result.status == 0, "\(result.stderr.prefix(300))")
        #expect(seconds < Self.bound, "took \(seconds) s")
        // The device name goes out escaped as it came in (tested apart: a failed expectation
        // prints its operands, a megabyte each).
        let echoed = result.stdout.contains("\"device\":\"\(name)\"")
        #expect(echoed)
    }

    @Test func watchPrintsControlCharactersAndQuotes() async throws {
        // Escaped as \u0001 (six bytes a byte) and \" — both in one name, 1 MiB of line.
        let name = String(repeating: "\\u0001\\\"", count: 120_000)
        let line = "{\"device\":\"\(name)\",\"lat\":34.0495933,\"lon\":-116.0931883}\n"
        #expect(line.utf8.count < Self.megabyte)
        let (result, seconds) = try await timed(["watch", "--favorites", "all"], stdin: Data(line.utf8))
        #expect(result.status == 0)
        #expect(seconds < Self.bound, "took \(seconds) s")
        let echoed = result.stdout.contains("\"device\":\"\(name)\"")
        #expect(echoed)
    }

    @Test func profilesWithAMegabyteUnknownKeyWarnShortly() async throws {
        let directory = try makeTemporaryDirectory("linear-profiles")
        defer { try? FileManager.default.removeItem(at: directory) }
        let key = String(repeating: "a", count: Self.megabyte)
        try Data("{\"d1\":{\"\(key)\":1}}".utf8).write(to: directory.appendingPathComponent("p.json"))
        let (result, seconds) = try await timed(["watch", "--profiles", "p.json"], stdin: Data(), in: directory)
        #expect(result.status == 0)
        #expect(seconds < Self.bound, "took \(seconds) s")
        // Quoted shortened, with the length it had.
        let shortened = result.stderr.contains("unknown key \"\(String(repeating: "a", count: 64))…\" (1048576 bytes) ignored")
        #expect(shortened, "\(result.stderr.prefix(400))")
        let stderrBytes = result.stderr.utf8.count
        #expect(stderrBytes < 2000)
    }

    @Test func landmarksJSONOfAMegabyteNameInACSVCatalog() async throws {
        let directory = try makeTemporaryDirectory("linear-catalog")
        defer { try? FileManager.default.removeItem(at: directory) }
        let name = String(repeating: "\\", count: Self.megabyte - 100)
        try Data("id,name,lat,lon\n1,\"\(name)\",34,-116\n".utf8).write(to: directory.appendingPathComponent("c.csv"))
        let (result, seconds) = try await timed(["landmarks", "--landmarks", "c.csv", "--json"], in: directory)
        #expect(result.status == 0, "\(result.stderr.prefix(300))")
        #expect(seconds < Self.bound, "took \(seconds) s")
        let printed = result.stdout.utf8.count
        #expect(printed > 2 * name.utf8.count)
        let (nearest, nearestSeconds) = try await timed(["nearest", "34", "-116", "--landmarks", "c.csv", "--json"], in: directory)
        #expect(nearest.status == 0)
        #expect(nearestSeconds < Self.bound, "took \(nearestSeconds) s")
    }

    @Test func mapPageOfAMegabyteOfAngleBrackets() async throws {
        let directory = try makeTemporaryDirectory("linear-map")
        defer { try? FileManager.default.removeItem(at: directory) }
        let name = String(repeating: "<&>\\\\", count: 200_000)
        let line = "{\"device\":\"\(name)\",\"lat\":34.0495933,\"lon\":-116.0931883}\n"
        let (result, seconds) = try await timed(
            ["map", "--out", directory.appendingPathComponent("m.html").path, "--favorites", "all"], stdin: Data(line.utf8))
        #expect(result.status == 0, "\(result.stderr.prefix(300))")
        #expect(seconds < Self.bound, "took \(seconds) s")
        let page = try String(contentsOf: directory.appendingPathComponent("m.html"), encoding: .utf8)
        let raw = page.contains("<&>")
        #expect(!raw)
    }

    @Test func catalogRadiusOfAMillionZeros() async throws {
        let directory = try makeTemporaryDirectory("linear-radius")
        defer { try? FileManager.default.removeItem(at: directory) }
        let radius = String(repeating: "0", count: Self.megabyte - 100) + "1km"
        try Data("id,name,lat,lon,radius\n1,A,34,-116,\(radius)\n".utf8).write(to: directory.appendingPathComponent("c.csv"))
        let (result, seconds) = try await timed(["payload", "--landmarks", "c.csv", "--id", "1"], in: directory)
        #expect(result.status == 0, "\(result.stderr.prefix(300))")
        #expect(seconds < Self.bound, "took \(seconds) s")
        #expect(result.stdout.contains("within 1 km"), "\(result.stdout.prefix(300))")
    }
}
