import Foundation
import Testing

@_spi(Inlining) @testable import LandmarkNearCore

/// `watch` reads a regular file on a thread of its own (`FixReadAhead`) and a pipe in line; the
/// two must print the same lines, say the same on stderr and end with the same status. Also
/// device names through the reader's hashing: many interleaved devices, and names that differ
/// only in Unicode normalisation.
@Suite(.suiteTimeLimit) struct WatchReadAheadTests {
    /// `count` devices driving east past Turtle Rock, interleaved fix by fix (the shape of the
    /// benchmark's load), with an unreadable line now and then.
    private func interleavedLoad(devices count: Int, seconds: Int, badEvery: Int = 0) -> String {
        var text = ""
        var line = 0
        for second in 0..<seconds {
            for device in 0..<count {
                line += 1
                if badEvery > 0, line % badEvery == 0 {
                    text += "{\"device\":\"d\(device)\",\"lat\":\"north\",\"lon\":1}\n"
                    continue
                }
                // From 12 km west to 12 km east, each device on its own parallel offset.
                let start = EngineFixtures.point(12_000 + Double(device % 7) * 100, azimuth: 270)
                let coordinate = EngineFixtures.point(Double(second) * 24_000 / Double(seconds), from: start)
                let time = EngineFixtures.time(Int64(second)).rfc3339
                text +=
                    "{\"device\":\"d\(device)\",\"lat\":\(coordinate.latitude),\"lon\":\(coordinate.longitude),\"time\":\"\(time)\",\"acc\":5}\n"
            }
        }
        return text
    }

    private func file(_ text: String, _ name: String) throws -> URL {
        let url = try makeTemporaryDirectory("read-ahead").appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url
    }

    /// The file's run against the same bytes piped in: stdout equal, stderr equal once the
    /// source is named alike, the same status.
    private func expectSameAsPiped(_ options: [String], _ text: String) async throws {
        let url = try file(text, "load.ndjson")
        let fromFile = try await runTool(["watch"] + options + [url.path], timeout: 120)
        let piped = try await runTool(["watch"] + options, stdin: text, timeout: 120)
        #expect(fromFile.status == piped.status, "\(fromFile.stderr)")
        #expect(fromFile.stdout == piped.stdout)
        #expect(fromFile.stderr.replacingOccurrences(of: url.path, with: "<stdin>") == piped.stderr)
    }

    @Test func aFileReadAheadPrintsWhatAPipePrints() async throws {
        // 30,000 records: several batches of `FixReadAhead.batchSize`.
        let text = interleavedLoad(devices: 300, seconds: 100, badEvery: 997)
        try await expectSameAsPiped(["--events", "all"], text)
        try await expectSameAsPiped(["--explain", "--cooldown", "0"], String(text.prefix(200_000)))
    }

    @Test func strictStopsAtTheSameRecordEitherWay() async throws {
        let text = interleavedLoad(devices: 300, seconds: 40, badEvery: 9_001)
        try await expectSameAsPiped(["--strict"], text)
    }

    @Test func inputsThatGiveNothingWarnAlike() async throws {
        try await expectSameAsPiped([], "# only a comment\n\n")
        try await expectSameAsPiped(["--format", "nmea"], "$GPRMC,120000,V,,,,,,,010526,,,N*56\n")
    }

    @Test func severalFilesCarryDevicesAcross() async throws {
        let text = interleavedLoad(devices: 50, seconds: 60)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: true)
        let first = try file(lines[..<1_000].joined(separator: "\n") + "\n", "first.ndjson")
        let second = try file(lines[1_000...].joined(separator: "\n") + "\n", "second.ndjson")
        let split = try await runTool(["watch", first.path, second.path], timeout: 120)
        let whole = try await runTool(["watch"], stdin: text, timeout: 120)
        #expect(split.status == 0 && whole.status == 0, "\(split.stderr)")
        #expect(split.stdout == whole.stdout)
        #expect(split.stdout.split(separator: "\n").count == 50)
    }

    /// 70,000 devices, two fixes each: past 65,536 devices the session prefetches the devices
    /// of the records a few on (`FixLookahead`, four at a time, up to a batch's end), which
    /// must change nothing; every device is notified once, on its second fix, as when piped.
    @Test func pastTheCachesPrefetchingChangesNothing() async throws {
        let count = 70_000
        // `interleavedLoad`'s drive, its 14 distinct fixes made once (140,000 geodesics
        // took most of the test's time in a debug build).
        let start = EngineFixtures.point(12_000, azimuth: 270)
        let fixes = (0..<2).map { second in
            let coordinate = EngineFixtures.point(Double(second) * 12_000, from: start)
            return
                ",\"lat\":\(coordinate.latitude),\"lon\":\(coordinate.longitude),\"time\":\"\(EngineFixtures.time(Int64(second)).rfc3339)\"}\n"
        }
        var text = ""
        for fix in fixes {
            for device in 0..<count { text += "{\"device\":\"d\(device)\"" + fix }
        }
        let url = try file(text, "prefetched.ndjson")
        let fromFile = try await runTool(["watch", url.path], timeout: 300)
        let piped = try await runTool(["watch"], stdin: text, timeout: 300)
        #expect(fromFile.status == 0 && piped.status == 0, "\(fromFile.stderr)")
        #expect(fromFile.stdout == piped.stdout)
        let lines = fromFile.stdout.split(separator: "\n")
        #expect(lines.count == count)
        #expect(lines.last?.contains("\"device\":\"d\(count - 1)\"") == true)
    }

    /// 2,000 devices interleaved fix by fix: every one is notified once, under its own name.
    @Test func manyInterleavedDevicesEachNotifiedOnce() async throws {
        let count = 2_000
        let url = try file(interleavedLoad(devices: count, seconds: 12), "many.ndjson")
        let result = try await runTool(["watch", url.path], timeout: 120)
        #expect(result.status == 0, "\(result.stderr)")
        let devices = try result.stdout.split(separator: "\n").map { try JSONParser.parse(String($0))["device"]?.stringValue ?? "" }
        #expect(devices.count == count)
        #expect(Set(devices) == Set((0..<count).map { "d\($0)" }))
    }

    /// "café" as U+00E9 and as "e" + U+0301, each device's fixes interleaved with the other's
    /// and with a third device: three devices, three notifications (docs/reference/fixes.md), read ahead or piped.
    @Test func namesDifferingOnlyInNormalisationStayTwoDevices() async throws {
        let names = ["caf\u{E9}", "cafe\u{301}", "cafe"]
        var text = ""
        for second in 0..<20 {
            for name in names {
                let coordinate = EngineFixtures.point(12_000 - Double(second) * 1_000)
                text +=
                    "{\"device\":\(JSONWriter.quoted(name)),\"lat\":\(coordinate.latitude),\"lon\":\(coordinate.longitude),\"time\":\"\(EngineFixtures.time(Int64(second)).rfc3339)\"}\n"
            }
        }
        let url = try file(text, "cafe.ndjson")
        for result in [try await runTool(["watch", url.path]), try await runTool(["watch"], stdin: text)] {
            #expect(result.status == 0, "\(result.stderr)")
            let devices = try result.stdout.split(separator: "\n").map { try JSONParser.parse(String($0))["device"]?.stringValue }
            #expect(devices.map { $0.map { Array($0.utf8) } } == names.map { Array($0.utf8) })
            #expect(result.stderr.contains("3 devices"))
        }
    }
}
