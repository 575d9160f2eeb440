import Foundation
import Testing

/// `watch --push apns --state FILE`: deliveries recorded in the state's delivery log, a
/// `kill -9` in the middle of them, and a restart that sends the rest and repeats none.
@Suite(.suiteTimeLimit)
struct DurableDeliveryTests {
    @Test func aKilledRunAndARestartDeliverTheRestAndRepeatNoneThatGot200() async throws {
        // One token: its deliveries go one after another, each answered after 1 s.
        let apns = try FakeAPNs(delay: 1.0)
        let directory = try makeTemporaryDirectory("apns-durable")
        defer { try? FileManager.default.removeItem(at: directory) }
        let profiles = try writeProfiles(["d1": [testToken(1)]], in: directory)
        var fixes = FixScript()
        for _ in 0..<5 {
            fixes.add("d1", FixScript.turtleRock)
            fixes.add("d1", FixScript.farAway)
        }
        let input = directory.appendingPathComponent("in.ndjson")
        try fixes.text.write(to: input, atomically: true, encoding: .utf8)
        let state = directory.appendingPathComponent("state.db").path
        let arguments =
            ["watch", "--cooldown", "0", "--profiles", profiles, "--state", state, "--apns-topic", FakeAPNs.topic]
            + apns.watchArguments

        let first = ChildProcess()
        first.executableURL = try toolExecutableURL()
        first.arguments = arguments
        first.standardInput = FileHandle(forReadingAtPath: input.path)
        first.standardOutput = FileHandle.nullDevice
        first.standardError = FileHandle.nullDevice
        try first.run()
        let deadline = Date().addingTimeInterval(20)
        while try apns.requests().filter({ $0.status == 200 }).count < 2, Date() < deadline { usleep(50_000) }
        // The kill once every 200 so far is in the delivery log (within milliseconds, but a
        // fixed 300 ms could be outlasted on a loaded or sanitized run); the next answer is a
        // second away.
        let recorded = try await stateRows(in: state, "SELECT count(*) FROM deliveries WHERE status = 'delivered'") { rows in
            rows == [String(try apns.requests().filter { $0.status == 200 }.count)]
        }
        kill(first.processIdentifier, SIGKILL)
        first.waitUntilExit()
        let beforeRestart = try apns.requests().filter { $0.status == 200 }.count
        #expect(beforeRestart >= 2 && beforeRestart < 5, "the kill came in the middle of the deliveries")
        #expect(recorded == [String(beforeRestart)], "the answers were not all recorded before the kill: \(recorded)")

        let listing = try await runTool(["deliveries", "--state", state, "--json"], stdin: "", timeout: 20)
        #expect(listing.status == 0)
        let statuses = listing.stdout.split(separator: "\n").compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["status"] as? String
        }
        #expect(statuses.count == 5, "\(listing.stdout)")
        #expect(statuses.filter { $0 == "delivered" }.count == beforeRestart)

        let second = try await runTool(arguments, stdin: fixes.text, timeout: 40)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stderr.contains("deliveries: \(5 - beforeRestart) delivered"), "\(second.stderr)")
        let delivered = try apns.requests().filter { $0.status == 200 }.map { $0.header["apns-id"] ?? "" }
        #expect(Set(delivered).count == 5, "every notification delivered")
        #expect(delivered.count == 5, "none delivered twice")

        let human = try await runTool(["deliveries", "--state", state], stdin: "", timeout: 20)
        #expect(human.stdout.split(separator: "\n").count == 5)
        #expect(human.stdout.contains("\"d1\" 1001 Turtle Rock"))
        #expect(human.stdout.contains("apns …\(testToken(1).suffix(8)): delivered"))
        #expect(!human.stdout.contains(testToken(1)))
    }

    @Test func retiredTokensStayRetiredAcrossRuns() async throws {
        let apns = try FakeAPNs(script: [testToken(1): ["410"]])
        let directory = try makeTemporaryDirectory("apns-durable-retired")
        defer { try? FileManager.default.removeItem(at: directory) }
        let profiles = try writeProfiles(["d1": [testToken(1), testToken(2)]], in: directory)
        let state = directory.appendingPathComponent("state.db").path
        var fixes = FixScript()
        fixes.add("d1", FixScript.turtleRock)
        fixes.add("d1", FixScript.farAway)
        let arguments =
            ["watch", "--cooldown", "0", "--profiles", profiles, "--state", state, "--apns-topic", FakeAPNs.topic]
            + apns.watchArguments
        let first = try await runTool(arguments, stdin: fixes.text, timeout: 30)
        #expect(first.stderr.contains("1 delivered, 0 retried, 0 failed, 1 retired"), "\(first.stderr)")
        // A second run with new fixes: the retired token is not used.
        var later = FixScript()
        later.add("d1", FixScript.turtleRock)
        let second = try await runTool(
            arguments,
            stdin: later.lines.map { $0.replacingOccurrences(of: "\"time\":\(later.start)", with: "\"time\":\(later.start + 100)") + "\n" }
                .joined(), timeout: 30)
        #expect(second.stderr.contains("1 delivered"), "\(second.stderr)")
        #expect(try apns.requests().forToken(testToken(1)).count == 1)
        #expect(try apns.requests().forToken(testToken(2)).count == 2)
        let listing = try await runTool(["deliveries", "--state", state], stdin: "", timeout: 20)
        #expect(listing.stdout.contains("retired after 1 try (410 Unregistered)"), "\(listing.stdout)")
        // The second run's job for the retired token is final too: no later run takes it up.
        #expect(
            listing.stdout.contains("\(testToken(1).suffix(8)): retired after 0 tries (not sent: token retired earlier)"),
            "\(listing.stdout)")
        #expect(!listing.stdout.contains("pending"), "\(listing.stdout)")
        let third = try await runTool(arguments, stdin: "", timeout: 30)
        #expect(third.status == 0, "\(third.stderr)")
        #expect(!third.stderr.contains("skipped"), "\(third.stderr)")
    }

    @Test func theListingNeedsAStateFile() async throws {
        #expect(try await runTool(["deliveries"], stdin: "", timeout: 10).status == 64)
        #expect(try await runTool(["deliveries", "--state", "/nonexistent/state.db"], stdin: "", timeout: 10).status == 66)
    }
}
