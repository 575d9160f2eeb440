import Foundation
import Testing

@_spi(Inlining) @testable import LandmarkNearCore
@testable import LandmarkNearSessions

/// docs/reference/output.md "Live operation" and docs/reference/state.md's lock, with the built tool run as a process.
@Suite(.serialized, .suiteTimeLimit)
struct ServiceOperationTests {
    static let rock = LandmarkCatalog.embedded[0].coordinate
    static let lake = LandmarkCatalog.embedded[3].coordinate

    static func fix(_ device: String, _ coordinate: Coordinate, minute: Int) -> String {
        let time = Timestamp(seconds: 1_777_636_800 + Int64(minute) * 60)
        return
            "{\"device\":\(JSONWriter.quoted(device)),\"lat\":\(coordinate.latitude),\"lon\":\(coordinate.longitude),\"time\":\"\(time.rfc3339)\"}\n"
    }

    @Test func sigtermWithStdoutInAFileKeepsEveryLineAndNoTemporaryFile() throws {
        let directory = try makeTemporaryDirectory("sigterm")
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("out.ndjson")
        let apns = directory.appendingPathComponent("apns")
        let trace = ServiceTrace.lines(fixes: 60)
        for stateful in [false, true] {
            try? FileManager.default.removeItem(at: apns)
            let state = stateful ? ["--state", directory.appendingPathComponent("s.db").path] : []
            let tool = try LiveTool(["watch"] + ServiceTrace.options + ["--apns-dir", apns.path] + state, stdoutFile: out)
            tool.write(trace.joined())
            tool.waitUntilInputDrained()
            usleep(100_000)
            tool.signal(SIGTERM)
            #expect(tool.wait() == 143, "\(tool.stderr)")
            let lines = ServiceTrace.lines(of: String(decoding: (try? Data(contentsOf: out)) ?? Data(), as: UTF8.self))
            let files = ServiceTrace.files(in: apns)
            #expect(lines.count > 20)
            #expect(lines.count == files.count, "every notification printed and written")
            #expect(files.keys.allSatisfy { !$0.hasPrefix(".") }, "no temporary file left")
            #expect(tool.stderr.contains("\(lines.count) notifications"))
            #expect(tool.stderr.contains("interrupted by SIGTERM"))
        }
    }

    @Test func sigintOnASilentPipeStopsAtOnce() throws {
        let tool = try LiveTool(["watch", "--format", "ndjson"])
        tool.write(Self.fix("d", Self.rock, minute: 0))
        #expect(tool.waitForStdoutLines(1))
        let sent = monotonicSeconds()
        tool.signal(SIGINT)
        #expect(tool.wait(timeout: 5) == 130)
        #expect(monotonicSeconds() - sent < 2)
        #expect(tool.stderr.contains("1 fix read") && tool.stderr.contains("interrupted by SIGINT"), "\(tool.stderr)")
    }

    /// stdout is a regular file, where output would wait for the file commit interval (1 s)
    /// or the end of input: each line must still reach it at once, since the input is live.
    /// The delays are measured once the tool is up (a warm-up notification of another device
    /// reached the file), so that the tool's start-up, seconds on a loaded machine or under
    /// AddressSanitizer, is not counted in the first one.
    @Test(arguments: [false, true])
    func liveNotificationIsFlushedAtOnce(stateful: Bool) throws {
        let directory = try makeTemporaryDirectory("live")
        defer { try? FileManager.default.removeItem(at: directory) }
        let state = stateful ? ["--state", directory.appendingPathComponent("s.db").path] : []
        let out = directory.appendingPathComponent("out.ndjson")
        let tool = try LiveTool(["watch", "--format", "ndjson"] + state, stdoutFile: out)
        func linesInFile() -> Int { ServiceTrace.lines(of: (try? String(contentsOf: out, encoding: .utf8)) ?? "").count }
        tool.write(Self.fix("warm-up", Self.lake, minute: 0))
        let warmUpDeadline = monotonicSeconds() + 30
        while monotonicSeconds() < warmUpDeadline, linesInFile() < 1 { usleep(5_000) }
        #expect(linesInFile() == 1, "the warm-up notification did not reach the file while the input was open: \(tool.stderr)")
        // A line not in the file after `window` seconds has waited for the end of input.
        let window = 5.0
        var delays: [Double] = []
        for minute in 0..<6 {
            let near = minute % 2 == 0
            let written = monotonicSeconds()
            tool.write(Self.fix("d", near ? Self.rock : EngineFixtures.point(30_000), minute: minute * 90))
            if near {
                let expected = minute / 2 + 2
                while monotonicSeconds() - written < window, linesInFile() < expected { usleep(2_000) }
                delays.append(monotonicSeconds() - written)
            }
            usleep(200_000)
        }
        tool.closeInput()
        #expect(tool.wait() == 0, "\(tool.stderr)")
        #expect(delays.count == 3)
        #expect(delays.allSatisfy { $0 < window }, "a line reached the file only at the end of input: \(delays)")
        // The 0.5 s of docs/reference/fixes.md is for the real tool; a sanitized one is several times slower.
        if !AddressSanitizer.isActive {
            #expect(delays.allSatisfy { $0 < 0.5 }, "\(delays)")
        }
    }

    @Test func closedStdoutEndsQuietlyWithStatusZero() throws {
        let input = ServiceTrace.lines(fixes: 3000).joined()
        let process = ChildProcess()
        process.executableURL = try toolExecutableURL()
        process.arguments = ["watch"] + ServiceTrace.options
        let stdin = Pipe()
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        signal(SIGPIPE, SIG_IGN)
        try process.run()
        let handle = stdin.fileHandleForWriting
        let writer = Thread {
            try? handle.write(contentsOf: Data(input.utf8))
            try? handle.close()
        }
        writer.start()
        // Like `| head -1`: read one line, then go away.
        var first = Data()
        while !first.contains(0x0A) {
            let chunk = stdout.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            first.append(chunk)
        }
        try stdout.fileHandleForReading.close()
        let errors = stderr.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(first.contains(0x0A))
        #expect(process.terminationReason == .exit && process.terminationStatus == 0)
        let message = String(decoding: errors, as: UTF8.self)
        #expect(!message.lowercased().contains("broken pipe") && !message.contains("error"), "\(message)")
    }

    @Test func secondProcessOnTheSameStateFileIsRefused() async throws {
        let directory = try makeTemporaryDirectory("lock")
        defer { try? FileManager.default.removeItem(at: directory) }
        let state = directory.appendingPathComponent("s.db").path
        let first = try LiveTool(["watch", "--format", "ndjson", "--state", state])
        first.write(Self.fix("d", Self.rock, minute: 0))
        #expect(first.waitForStdoutLines(1))
        let second = try await runTool(["watch", "--state", state], stdin: "")
        #expect(second.status == 75)
        #expect(second.stderr.contains("in use by another landmark-near process (pid \(first.pid))"), "\(second.stderr)")
        first.closeInput()
        #expect(first.wait() == 0)
        #expect(try await runTool(["watch", "--state", state], stdin: "").status == 0)
    }

    @Test func openingTheApnsDirectoryRemovesLeftoverTemporaryFiles() async throws {
        let directory = try makeTemporaryDirectory("leftover")
        defer { try? FileManager.default.removeItem(at: directory) }
        let leftover = directory.appendingPathComponent(".d-1001-20260501T120000Z.apns.tmp-3fa9c2")
        let unrelated = directory.appendingPathComponent(".keep.tmp-zz")
        try Data("{".utf8).write(to: leftover)
        try Data().write(to: unrelated)
        let result = try await runTool(["watch", "--apns-dir", directory.path], stdin: "")
        #expect(result.status == 0)
        #expect(!FileManager.default.fileExists(atPath: leftover.path))
        #expect(FileManager.default.fileExists(atPath: unrelated.path))
    }

    @Test func sighupReloadsProfilesAndKeepsState() async throws {
        let directory = try makeTemporaryDirectory("sighup")
        defer { try? FileManager.default.removeItem(at: directory) }
        let profiles = directory.appendingPathComponent("profiles.json")
        try Data(#"{"d": {"favorites": [1001]}}"#.utf8).write(to: profiles)
        let state = directory.appendingPathComponent("s.db").path
        let tool = try LiveTool(["watch", "--format", "ndjson", "--profiles", profiles.path, "--state", state])
        tool.write(Self.fix("d", Self.rock, minute: 0))
        #expect(tool.waitForStdoutLines(1))

        try Data("{not json".utf8).write(to: profiles)
        tool.signal(SIGHUP)
        #expect(tool.waitForStderr(containing: "keeping the previous catalog and profiles"), "\(tool.stderr)")

        try Data(#"{"d": {"favorites": [1001, 1004]}}"#.utf8).write(to: profiles)
        tool.signal(SIGHUP)
        #expect(tool.waitForStderr(containing: "reloaded 12 landmarks and 1 profiles"), "\(tool.stderr)")
        // Still inside Turtle Rock: no second notification; St. Mary Lake is a favourite now.
        tool.write(Self.fix("d", Self.rock, minute: 10))
        tool.write(Self.fix("d", Self.lake, minute: 20))
        #expect(tool.waitForStdoutLines(2))
        tool.closeInput()
        #expect(tool.wait() == 0, "\(tool.stderr)")
        let names = ServiceTrace.lines(of: tool.stdout).compactMap { try? JSONParser.parse($0)["landmark"]?["name"]?.stringValue }
        #expect(names == ["Turtle Rock", "St. Mary Lake"])
    }

    @Test func stateQueriesOfTheReadmeAnswer() async throws {
        let directory = try makeTemporaryDirectory("queries")
        defer { try? FileManager.default.removeItem(at: directory) }
        let state = directory.appendingPathComponent("s.db").path
        let result = try await runTool(["watch", "--state", state, repositoryRoot.appendingPathComponent("Samples/road-trip.nmea").path])
        #expect(result.status == 0)
        // The run has ended: the first read is the answer.
        let rows = try await stateRows(
            in: state, "SELECT device, landmark_name, fix_time, status FROM notifications ORDER BY id", timeout: 0
        ) { _ in true }
        #expect(rows == ["default|Turtle Rock|2026-05-01T16:04:30Z|done", "default|St. Mary Lake|2026-07-14T15:16:05Z|done"])
    }
}
