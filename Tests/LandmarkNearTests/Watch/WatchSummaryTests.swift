import Foundation
import Testing

@testable import LandmarkNearEngine
@testable import LandmarkNearOutputs

/// The summary line says when stale fixes are second reports of a moment already used (NMEA's
/// RMC and GGA of one second are two fixes, docs/reference/fixes.md), so that "500 stale" does not read as loss.
@Suite(.suiteTimeLimit) struct WatchSummaryTests {
    typealias F = EngineFixtures

    @Test func theEngineTellsARepeatedTimeFromAnEarlierOne() throws {
        let engine = try ProximityEngine(catalog: .embedded, configuration: EngineConfiguration())
        var events: [ProximityEvent] = []
        #expect(engine.process(F.fix(F.point(20_000), at: 10), into: &events) == .used)
        #expect(engine.process(F.fix(F.point(20_000), at: 10), into: &events) == .dropped(.stale))
        #expect(engine.lastStaleRepeatedTime)
        #expect(engine.process(F.fix(F.point(20_000), at: 9), into: &events) == .dropped(.stale))
        #expect(!engine.lastStaleRepeatedTime)
        // Per device: another device's time is not a repeat.
        #expect(engine.process(F.fix(F.point(20_000), device: "d2", at: 5), into: &events) == .used)
        #expect(engine.process(F.fix(F.point(20_000), device: "d2", at: 5), into: &events) == .dropped(.stale))
        #expect(engine.lastStaleRepeatedTime)
    }

    static let base = "2 fixes read, 1 used; dropped: 0 unreadable, 0 accuracy, 1 stale; 0 notifications (0 enters; 0 exits); 1 device"

    @Test(arguments: [
        (
            1, 0,
            base
                + "; 1 stale fix repeats the time of a used fix (NMEA's RMC and GGA of one second: one moment reported twice, nothing lost)"
        ),
        (
            500, 0,
            base
                + "; 500 stale fixes repeat the time of a used fix (NMEA's RMC and GGA of one second: one moment reported twice, nothing lost)"
        ),
        (0, 1, base + "; 1 stale fix repeats the time of a used fix"),
        (0, 3, base + "; 3 stale fixes repeat the time of a used fix"),
        (0, 0, base),
    ])
    func summaryNamesRepeatedTimes(_ nmea: Int, _ other: Int, _ expected: String) {
        var statistics = WatchStatistics()
        statistics.recordsRead = 2
        statistics.used = 1
        statistics.dropped[.stale] = 1
        statistics.devices = 1
        statistics.nmeaSameSecond = nmea
        statistics.sameTime = other
        #expect(statistics.summary == expected)
    }

    /// The quick start: every GGA repeats its RMC's second. The counts come from the sample.
    @Test func theQuickStartSaysNothingWasLost() async throws {
        let sample = repositoryRoot.appendingPathComponent("Samples/road-trip.nmea")
        let sentences = try String(contentsOf: sample, encoding: .utf8).split(whereSeparator: \.isNewline)
        let positioned = sentences.filter { $0.hasPrefix("$GPRMC") || $0.hasPrefix("$GPGGA") }
        // Each sentence's moment: its time of day on the date of the latest RMC.
        var date = ""
        let seconds = Set(
            positioned.map { line -> String in
                let fields = line.split(separator: ",", omittingEmptySubsequences: false)
                if line.hasPrefix("$GPRMC") { date = String(fields[9]) }
                return date + " " + fields[1]
            })
        let others = sentences.filter { $0.hasPrefix("$") }.count - positioned.count
        let repeats = positioned.count - seconds.count
        #expect(repeats > 0)
        let result = try await runTool(["watch", sample.path])
        #expect(result.status == 0)
        let summary = try #require(result.stderr.split(separator: "\n").last)
        #expect(
            summary.hasPrefix(
                "landmark-near watch: \(positioned.count) fixes read, \(seconds.count) used; dropped: 0 unreadable, 0 accuracy, \(repeats) stale; 2 notifications"
            ))
        #expect(
            summary.hasSuffix(
                "; 1 device; \(repeats) stale fixes repeat the time of a used fix (NMEA's RMC and GGA of one second: one moment reported twice, nothing lost); \(others) NMEA sentences without a fix"
            ))
    }

    @Test func otherInputsSayItPlainlyAndAnEarlierTimeIsNoRepeat() async throws {
        let lines = [
            #"{"device":"d1","lat":34.5,"lon":-116.2,"time":"2026-05-01T12:00:10Z"}"#,
            #"{"device":"d1","lat":34.5,"lon":-116.2,"time":"2026-05-01T12:00:10Z"}"#,
            #"{"device":"d1","lat":34.5,"lon":-116.2,"time":"2026-05-01T12:00:05Z"}"#,
        ]
        let result = try await runTool(["watch", "--explain"], stdin: lines.joined(separator: "\n") + "\n")
        #expect(result.status == 0)
        #expect(
            result.stderr.contains(
                "<stdin>:2 device \"d1\" at 2026-05-01T12:00:10Z: dropped as stale, same time as the device's latest used fix (one moment reported twice, nothing lost)"
            ))
        #expect(
            result.stderr.contains(
                "<stdin>:3 device \"d1\" at 2026-05-01T12:00:05Z: dropped as stale, its time is earlier than the device's latest used fix"))
        #expect(
            result.stderr.hasSuffix("2 stale; 0 notifications (0 enters; 0 exits); 1 device; 1 stale fix repeats the time of a used fix\n"))
    }
}
