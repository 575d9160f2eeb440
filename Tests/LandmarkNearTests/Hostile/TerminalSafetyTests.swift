import Foundation
import Testing

@testable import LandmarkNearDelivery

/// Issue 43: no raw control byte reaches stderr, whatever the input names or the command line
/// holds: escape sequences (which set a terminal's title, clear it, or worse), C1 controls, and
/// the bidirectional controls that make a line read otherwise than it is ("Trojan Source").
@Suite("hostile input: nothing raw on stderr", .suiteTimeLimit)
struct TerminalSafetyTests {
    /// ESC ] 0 ; ... BEL sets the title, ESC [ 2 J clears the screen, U+202E reverses the line.
    static let hostile = "\u{1B}]0;pwned\u{7}\u{1B}[2J\u{9B}1m\u{202E}txt.exe\u{2066}"

    /// The scalars of `text` that act on a terminal or reorder a line (newlines and tabs
    /// between lines apart).
    static func rawControls(in text: String) -> [String] {
        text.unicodeScalars.filter { scalar in
            switch scalar.value {
            case 0x0A: return false
            case 0x00..<0x20, 0x7F...0x9F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: return true
            default: return false
            }
        }.map { "U+" + String($0.value, radix: 16, uppercase: true) }
    }

    @Test func csvCatalogRefusalQuotesTheCellEscaped() async throws {
        let directory = try makeTemporaryDirectory("safe-catalog")
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data("id,name,lat,lon\n1,A,\"\(Self.hostile)\",-116\n".utf8).write(to: directory.appendingPathComponent("c.csv"))
        let result = try await runTool(["landmarks", "--landmarks", "c.csv"], currentDirectory: directory)
        #expect(result.status == 65)
        #expect(Self.rawControls(in: result.stderr).isEmpty, "\(result.stderr)")
        #expect(result.stderr.contains(#"has a latitude that is not a number ("\u001b]0;pwned\u0007\u001b[2J\u{9B}1m\u{202E}txt.exe"#))
    }

    static let echoing: [StatusCase] = [
        StatusCase(["watch", "--events", "\u{1B}[2J"], 64), StatusCase(["watch", "--radius", "5\u{1B}[2Jmi"], 64),
        StatusCase(["watch", "--cooldown", "\u{202E}1h"], 64), StatusCase(["nearest", "34", "-116", "-k", "\u{1B}]0;x\u{7}"], 64),
        StatusCase(["watch", "--\u{1B}[2J"], 64), StatusCase(["w\u{1B}[2Jatch"], 64), StatusCase(["landmarks", "\u{202E}extra"], 64),
        StatusCase(["serve", "--listen", "127.0.0.1:0", "--threads", "\u{1B}[2J"], 64),
        StatusCase(["watch", "--landmarks", "/nonexistent/\u{1B}[2J\u{202E}.csv"], 66),
        StatusCase(["watch", "--profiles", "/nonexistent/\u{1B}]0;x\u{7}.json"], 66),
        StatusCase(["watch", "/nonexistent/\u{9B}2J.nmea"], 66),
    ]

    @Test(arguments: echoing)
    func optionValuesAreEchoedEscaped(_ test: StatusCase) async throws {
        let result = try await runTool(test.arguments, stdin: "")
        #expect(result.status == test.status, "\(result.stderr)")
        #expect(Self.rawControls(in: result.stderr).isEmpty, "\(result.stderr)")
        #expect(result.stderr.contains("\\u"), "\(result.stderr)")
    }

    @Test func longOptionValuesAreShortened() async throws {
        let value = String(repeating: "x", count: 100_000)
        let result = try await runTool(["watch", "--events", value], stdin: "")
        #expect(result.status == 64)
        let shortened = result.stderr.contains("…' (100000 bytes)")
        #expect(shortened, "\(result.stderr.prefix(300))")
        let bytes = result.stderr.utf8.count
        #expect(bytes < 500)
    }

    @Test func deviceNamesInExplainAndRecordErrors() async throws {
        let name = "d\(Self.hostile)"
        let escapedName = String(data: try JSONEncoder().encode(name), encoding: .utf8)!
        let input = [
            "{\"device\":\(escapedName),\"lat\":34.0495933,\"lon\":-116.0931883}",
            "{\"device\":\(escapedName),\"lat\":\(escapedName),\"lon\":1}",
        ].joined(separator: "\n")
        let directory = try makeTemporaryDirectory("safe-explain")
        defer { try? FileManager.default.removeItem(at: directory) }
        // A profile for the hostile device naming a favourite the catalog lacks: an error line.
        let profiles = directory.appendingPathComponent("p.json")
        try Data("{\(escapedName): {\"favorites\": [1001], \(escapedName): 1}}".utf8).write(to: profiles)
        let result = try await runTool(["watch", "--favorites", "all", "--explain", "--profiles", profiles.path], stdin: input)
        #expect(result.status == 65, "\(result.stderr)")
        #expect(Self.rawControls(in: result.stderr).isEmpty, "\(result.stderr)")
        #expect(result.stderr.contains("explain: <stdin>:1 device"), "\(result.stderr)")
        let wrongFavorite = Data("{\(escapedName): {\"favorites\": [7]}}".utf8)
        try wrongFavorite.write(to: profiles)
        let refused = try await runTool(["watch", "--profiles", profiles.path], stdin: "")
        #expect(refused.status != 0)
        #expect(Self.rawControls(in: refused.stderr).isEmpty, "\(refused.stderr)")
    }

    @Test func serveLogLinesAreEscaped() async throws {
        let server = try ServeProcess(["--explain", "--favorites", "all"])
        defer { server.kill() }
        let name = String(data: try JSONEncoder().encode("d\(Self.hostile)"), encoding: .utf8)!
        let body = "{\"device\":\(name),\"lat\":34.0495933,\"lon\":-116.0931883}\n{\"device\":\(name),\"lat\":\(name),\"lon\":1}\n"
        let reply = try HTTPConnection(port: server.port).request("POST", "/fixes", body: Array(body.utf8))
        #expect(reply.status == 200)
        let result = try server.stop()
        #expect(result.status == 0)
        #expect(result.stderr.contains("explain: /fixes:1 device"), "\(result.stderr)")
        #expect(result.stderr.contains("/fixes:2: "), "\(result.stderr)")
        #expect(Self.rawControls(in: result.stderr).isEmpty, "\(result.stderr)")
    }
}

/// The delivery thread writes its own lines (one write(2) each): they are made safe too.
@Suite(.suiteTimeLimit) struct DeliveryLogSafetyTests {
    @Test func deliveryLinesAreSafe() throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer { close(ends[0]) }
        let log = DeliveryLog(prefix: "landmark-near watch", verbose: true, descriptor: ends[1])
        log.write("delivery: webhook https://h\u{1B}]0;x\u{7}/p, device \"\u{202E}d\": 500\nnext")
        close(ends[1])
        var bytes = [UInt8](repeating: 0, count: 4096)
        let count = read(ends[0], &bytes, bytes.count)
        let text = String(decoding: bytes[0..<max(0, count)], as: UTF8.self)
        #expect(TerminalSafetyTests.rawControls(in: text).isEmpty, "\(text)")
        #expect(text == "delivery: webhook https://h\\u{1B}]0;x\\u{7}/p, device \"\\u{202E}d\": 500\nnext\n")
    }
}
