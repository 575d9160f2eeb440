import Foundation
import Testing

@_spi(Inlining) @testable import LandmarkNearCore

/// `landmark-near watch --profiles FILE` with `quietHours`, run as a process.
@Suite(.suiteTimeLimit) struct QuietHoursWatchTests {
    private let near = EngineFixtures.point(100)
    private let far = EngineFixtures.point(30_000)

    private func line(_ device: String, _ coordinate: Coordinate, _ time: String?) -> String {
        "{\"device\":\"\(device)\",\"lat\":\(coordinate.latitude),\"lon\":\(coordinate.longitude)"
            + (time.map { ",\"time\":\"\($0)\"" } ?? "") + "}\n"
    }

    private func withProfiles(_ text: String, _ body: (String) async throws -> Void) async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let profiles = directory.appendingPathComponent("p.json")
        try Data(text.utf8).write(to: profiles)
        try await body(profiles.path)
    }

    @Test func quietOnTheSpringForwardMorningThenNotifiedAfterIt() async throws {
        let night = #"{"from": "22:00", "to": "07:00", "timeZone": "Europe/Berlin"}"#
        try await withProfiles(#"{"alice": {"quietHours": \#(night)}, "bob": {"quietHours": \#(night)}}"#) { profiles in
            let input =
                line("alice", near, "2026-03-29T04:30:00Z")  // 06:30 CEST: quiet
                + line("alice", far, "2026-03-29T04:40:00Z")
                // 07:10 CEST (06:10 had the clock not moved): notified, no cooldown from the quiet enter.
                + line("alice", near, "2026-03-29T05:10:00Z")
                + line("bob", near, nil)  // untimed: never quiet
            let result = try await runTool(["watch", "--profiles", profiles, "--events", "all", "--explain"], stdin: input)
            #expect(result.status == 0, "\(result.stderr)")
            let events = try result.stdout.split(separator: "\n").map { try JSONParser.parse(String($0)) }
            #expect(events.map { $0["device"]?.stringValue } == ["alice", "alice", "alice", "bob"])
            #expect(events.map { $0["event"]?.stringValue } == ["enter", "exit", "enter", "enter"])
            #expect(events.map { $0["notified"]?.boolValue } == [false, nil, true, true])
            #expect(events.map { $0["reason"]?.stringValue } == ["quiet", nil, nil, nil])
            #expect(events[0]["payload"] == nil && events[2]["payload"] != nil && events[3]["payload"] != nil)
            #expect(
                result.stderr.contains(
                    #"at 2026-03-29T04:30:00Z: enter "Turtle Rock" at 100 m, suppressed: quiet hours 22:00–07:00 Europe/Berlin, local 06:30"#
                ),
                "\(result.stderr)")
            #expect(result.stderr.contains("2 notifications (3 enters, 1 suppressed by quiet hours; 1 exit)"), "\(result.stderr)")
        }
    }

    /// The morning after each 2026 change: an enter at 06:30 local is quiet, one at 07:30 local
    /// notifies; read with the offset of before the change, each would go the other way.
    @Test(arguments: [
        ("Europe/Berlin", "2026-03-29T04:30:00Z", "2026-03-29T05:30:00Z"),
        ("Europe/Berlin", "2026-10-25T05:30:00Z", "2026-10-25T06:30:00Z"),
        ("America/New_York", "2026-03-08T10:30:00Z", "2026-03-08T11:30:00Z"),
        ("America/New_York", "2026-11-01T11:30:00Z", "2026-11-01T12:30:00Z"),
    ])
    func theMorningAfterEachChange(zone: String, quiet: String, notified: String) async throws {
        let night = #"{"from": "22:00", "to": "07:00", "timeZone": "\#(zone)"}"#
        try await withProfiles(#"{"early": {"quietHours": \#(night)}, "late": {"quietHours": \#(night)}}"#) { profiles in
            let input = line("early", near, quiet) + line("late", near, notified)
            let result = try await runTool(["watch", "--profiles", profiles, "--events", "all"], stdin: input)
            #expect(result.status == 0, "\(result.stderr)")
            let events = try result.stdout.split(separator: "\n").map { try JSONParser.parse(String($0)) }
            #expect(events.map { $0["device"]?.stringValue } == ["early", "late"])
            #expect(events.map { $0["reason"]?.stringValue } == ["quiet", nil])
            #expect(events.map { $0["notified"]?.boolValue } == [false, true])
        }
    }

    @Test func unknownZoneRefusesTheProfilesNamingTheDevice() async throws {
        try await withProfiles(#"{"alice": {"quietHours": {"from": "22:00", "to": "07:00", "timeZone": "Mars/Base"}}}"#) { profiles in
            let result = try await runTool(["watch", "--profiles", profiles], stdin: line("alice", near, "2026-03-29T04:30:00Z"))
            #expect(result.status == 65)
            #expect(result.stdout.isEmpty)
            #expect(
                result.stderr.contains(#"device "alice": quietHours.timeZone "Mars/Base" is not a time zone in /usr/share/zoneinfo"#),
                "\(result.stderr)")
        }
    }

    @Test func malformedTimeRefusesTheProfiles() async throws {
        try await withProfiles(#"{"bob": {"quietHours": {"from": "25:00", "to": "07:00", "timeZone": "Europe/Berlin"}}}"#) { profiles in
            let result = try await runTool(["watch", "--profiles", profiles], stdin: "")
            #expect(result.status == 65)
            #expect(result.stderr.contains(#"device "bob": quietHours.from "25:00" is not HH:MM"#), "\(result.stderr)")
        }
    }
}
