import Foundation
import Testing

@_spi(Inlining) @testable import LandmarkNearCore

/// `landmark-near watch` run as a process.
@Suite(.suiteTimeLimit) struct WatchCommandTests {
    private func lines(_ text: String) -> [String] { text.split(separator: "\n").map(String.init) }

    private func events(_ result: ToolResult) throws -> [JSONValue] {
        try lines(result.stdout).map { try JSONParser.parse($0) }
    }

    private func ndjson(_ fixes: [(String, Coordinate, String?)]) -> String {
        fixes.map { device, coordinate, time in
            var line = "{\"device\":\(JSONWriter.quoted(device)),\"lat\":\(coordinate.latitude),\"lon\":\(coordinate.longitude)"
            if let time { line += ",\"time\":\"\(time)\"" }
            return line + "}\n"
        }.joined()
    }

    @Test func sampleRoadTripNotifiesTurtleRockThenStMaryLake() async throws {
        let result = try await runTool(["watch", repositoryRoot.appendingPathComponent("Samples/road-trip.nmea").path])
        #expect(result.status == 0, "\(result.stderr)")
        let notified = try events(result)
        #expect(notified.map { $0["landmark"]?["name"]?.stringValue } == ["Turtle Rock", "St. Mary Lake"])
        #expect(notified.map { $0["device"]?.stringValue } == ["default", "default"])
        #expect(notified[0]["time"]?.stringValue?.hasPrefix("2026-05-01T16:") == true)
        #expect(notified.allSatisfy { ($0["distanceMeters"]?.doubleValue ?? .infinity) <= 8046.72 })
        #expect(result.stderr.contains("2 notifications"))
    }

    @Test func piping_ndjson_with_a_bad_line_reports_it_and_keeps_the_rest() async throws {
        let rock = EngineFixtures.point(100)
        let input =
            ndjson([("d1", EngineFixtures.point(20_000), "2026-05-01T12:00:00Z")])
            + "{\"device\":\"d1\",\"lat\":\"north\",\"lon\":1}\n"
            + ndjson([("d1", rock, "2026-05-01T12:00:05Z")])
        let result = try await runTool(["watch"], stdin: input)
        #expect(result.status == 65)
        #expect(result.stderr.contains("<stdin>:2: "))
        let notified = try events(result)
        #expect(notified.count == 1)
        #expect(notified.first?["payload"]?["aps"]?["category"]?.stringValue == "LandmarkNear")
        #expect(notified.first?["payload"]?["landmarkIndex"]?.integer == 0)
    }

    @Test func strictStopsAtTheFirstBadRecord() async throws {
        let input = "{\"lat\":91,\"lon\":0}\n" + ndjson([("d1", EngineFixtures.point(100), nil)])
        let result = try await runTool(["watch", "--strict"], stdin: input)
        #expect(result.status == 65)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("<stdin>:1: "))
    }

    @Test func eventsAllShowsExitsAndSuppressedEnters() async throws {
        let near = EngineFixtures.point(100)
        let far = EngineFixtures.point(30_000)
        let input = ndjson([
            ("car", near, "2026-05-01T12:00:00Z"), ("car", far, "2026-05-01T12:10:00Z"),
            ("car", near, "2026-05-01T12:20:00.250Z"),
        ])
        let result = try await runTool(["watch", "--events", "all", "--cooldown", "30m"], stdin: input)
        #expect(result.status == 0)
        let all = try events(result)
        #expect(all.map { $0["event"]?.stringValue } == ["enter", "exit", "enter"])
        #expect(all.map { $0["notified"]?.boolValue } == [true, nil, false])
        #expect(all[2]["reason"]?.stringValue == "cooldown")
        #expect(all[2]["time"]?.stringValue == "2026-05-01T12:20:00.25Z")
        #expect(all[0]["payload"] != nil && all[1]["payload"] == nil && all[2]["payload"] == nil)
    }

    @Test func radiusChangesThePayloadPhrase() async throws {
        let input = ndjson([("d", EngineFixtures.point(4000), nil)])
        let narrow = try await runTool(["watch", "--radius", "3km"], stdin: input)
        #expect(narrow.stdout.isEmpty)
        let wide = try await runTool(["watch", "--radius", "8km"], stdin: input)
        let body = try events(wide).first?["payload"]?["aps"]?["alert"]?["body"]?.stringValue
        #expect(body == "You are within 8 km of Turtle Rock.")
    }

    @Test func profilesFileSetsPerDeviceFavourites() async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let profiles = directory.appendingPathComponent("profiles.json")
        try Data(#"{"quiet": {"prefersNotifications": false}, "fisher": {"favorites": [1002]}}"#.utf8).write(to: profiles)
        let salmon = LandmarkCatalog.embedded[1].coordinate
        let input = ndjson([("quiet", EngineFixtures.point(10), nil), ("fisher", salmon, nil), ("fisher", EngineFixtures.point(10), nil)])
        let result = try await runTool(["watch", "--profiles", profiles.path, "--events", "all"], stdin: input)
        #expect(result.status == 0, "\(result.stderr)")
        let all = try events(result)
        // fisher's favourite is Silver Salmon Creek only: leaving it for Turtle Rock is an exit, not an enter.
        #expect(all.map { $0["device"]?.stringValue } == ["quiet", "fisher", "fisher"])
        #expect(all.map { $0["event"]?.stringValue } == ["enter", "enter", "exit"])
        #expect(all.map { $0["reason"]?.stringValue } == ["profile", nil, nil])
        #expect(all[1]["landmark"]?["id"]?.integer == 1002)
    }

    @Test func misspeltProfileKeysAreWarnedAndTheRunGoesOn() async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let profiles = directory.appendingPathComponent("profiles.json")
        try Data(#"{"fisher": {"favourites": [1002]}}"#.utf8).write(to: profiles)
        let salmon = LandmarkCatalog.embedded[1].coordinate
        let result = try await runTool(["watch", "--profiles", profiles.path], stdin: ndjson([("fisher", salmon, nil)]))
        #expect(result.status == 0)
        #expect(result.stdout.isEmpty, "the misspelt key is not read as favourites")
        #expect(result.stderr.contains(#"unknown key "favourites" ignored (did you mean "favorites"?)"#), "\(result.stderr)")
        #expect(result.stderr.contains("1 fix read, 1 used"), "singular: \(result.stderr)")
    }

    @Test func profilesNamingUnknownLandmarksAreBadData() async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let profiles = directory.appendingPathComponent("profiles.json")
        try Data(#"{"car": {"favorites": [4242]}}"#.utf8).write(to: profiles)
        let result = try await runTool(["watch", "--profiles", profiles.path], stdin: "")
        #expect(result.status == 65)
        #expect(result.stderr.contains(#"device "car""#) && result.stderr.contains("4242"))
        try Data("{".utf8).write(to: profiles)
        #expect(try await runTool(["watch", "--profiles", profiles.path], stdin: "").status == 65)
    }

    @Test func apnsDirHoldsTheSamePayloadsUnderSafeNames() async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("out")
        let devices = ["../../evil", "a/b", "a_b", String(repeating: "x", count: 300), "..", "tab\tname"]
        let input = ndjson(devices.map { ($0, EngineFixtures.point(50), "2026-05-01T12:00:00Z") })
        let result = try await runTool(["watch", "--apns-dir", out.path], stdin: input)
        #expect(result.status == 0, "\(result.stderr)")
        let printed = try events(result).compactMap { $0["payload"].map(JSONWriter.serialize) }
        #expect(printed.count == devices.count)
        let files = try FileManager.default.contentsOfDirectory(atPath: out.path).sorted()
        #expect(files.count == devices.count)
        for name in files {
            #expect(name.hasSuffix(".apns"))
            #expect(name.utf8.count <= 255)
            #expect(name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) })
            let contents = try String(contentsOf: out.appendingPathComponent(name), encoding: .utf8)
            #expect(printed.contains(contents.trimmingCharacters(in: .newlines)))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["out"])
    }

    static let statusCases: [StatusCase] = [
        StatusCase(["watch", "--radius", "5"], 64), StatusCase(["watch", "--cooldown", "1w"], 64),
        StatusCase(["watch", "--bogus"], 64), StatusCase(["watch", "--events", "some"], 64),
        StatusCase(["watch", "--format", "shp"], 64), StatusCase(["watch", "--apns-dir", ""], 64),
        StatusCase(["watch", "--favorites", "9999"], 64),
        StatusCase(["watch", "/no/such/trace.gpx"], 66), StatusCase(["watch", "--profiles", "/no/such.json"], 66),
        StatusCase(["watch", "--landmarks", "/no/such.json"], 66),
    ]

    @Test(arguments: statusCases)
    func usageAndMissingInput(_ testCase: StatusCase) async throws {
        let result = try await runTool(testCase.arguments, stdin: "")
        #expect(result.status == testCase.status)
        #expect(!result.stderr.isEmpty)
        #expect(result.stdout.isEmpty)
    }
    @Test func emptyInputIsFine() async throws {
        let result = try await runTool(["watch"], stdin: "")
        #expect(result.status == 0)
        #expect(result.stderr.contains("0 fixes read"))
    }

    @Test func helpDescribesTheOptions() async throws {
        let result = try await runTool(["watch", "--help"])
        #expect(result.status == 0)
        for option in [
            "--radius", "--hysteresis", "--cooldown", "--max-accuracy", "--favorites", "--profiles",
            "--events", "--strict", "--explain", "--apns-dir", "--format", "--landmarks",
        ] {
            #expect(result.stdout.contains(option))
        }
    }

    @Test func explainSaysWhy() async throws {
        let input = ndjson([("d", EngineFixtures.point(20_000), nil), ("d", EngineFixtures.point(10), nil)])
        let result = try await runTool(["watch", "--explain"], stdin: input)
        #expect(result.stderr.contains("nearest favourite \"Turtle Rock\""))
        #expect(result.stderr.contains("enter \"Turtle Rock\""))
    }
}
