import Foundation
import Testing

@_spi(Inlining) @testable import LandmarkNearCore
@testable import LandmarkNearOutputs

/// docs/reference/state.md, crash: `kill -9` at random moments, each time rerunning the whole timed input
/// with the same `--state` file; then one run to the end. No notification is lost (every
/// line of a clean run was printed at least once, and nothing else was), and the `.apns`
/// directory ends with exactly a clean run's files.
@Suite(.suiteTimeLimit)
struct StateCrashTests {
    @Test func killedRunsLoseNoNotification() async throws {
        let directory = try makeTemporaryDirectory("crash")
        defer { try? FileManager.default.removeItem(at: directory) }
        let trace = ServiceTrace.lines(fixes: 3000).joined()
        let options = ServiceTrace.options

        let referenceApns = directory.appendingPathComponent("reference-apns")
        let referenceStart = monotonicSeconds()
        let reference = try await runTool(
            ["watch"] + options + [
                "--apns-dir", referenceApns.path,
                "--state", directory.appendingPathComponent("reference.db").path,
            ], stdin: trace)
        // Kill moments spread over a run's length on this machine (it may be loaded): the window
        // starts at a whole run's time, shrinks after a kill that came too late and grows
        // after one that hit.
        var window = min(0.3, max(0.02, monotonicSeconds() - referenceStart))
        #expect(reference.status == 0, "\(reference.stderr)")
        let referenceLines = ServiceTrace.lines(of: reference.stdout)
        let referenceFiles = ServiceTrace.files(in: referenceApns)
        #expect(referenceLines.count > 1000)

        let state = directory.appendingPathComponent("state.db").path
        let apns = directory.appendingPathComponent("apns")
        let arguments = ["watch"] + options + ["--state", state, "--apns-dir", apns.path]
        var generator = IndexTestSupport.SeededGenerator(seed: 9)
        var printed: [String] = []
        var kills = 0
        var attempts = 0
        // Kills until `wantedKills` hit a running process or the budget is spent, whichever
        // comes first: under AddressSanitizer (several times slower) or on a loaded machine a
        // run's start-up alone can take seconds, and 50 kills did not always fit in 90 s. Each
        // kill cuts a run at a random moment and the next resumes from what it committed, so
        // `requiredKills` of them still prove the point; the check that matters (no
        // notification lost, none invented, the same files) is the same however many there were.
        let wantedKills = 60
        let requiredKills = 20
        let budget = 90.0
        let started = monotonicSeconds()
        while kills < wantedKills && attempts < 200 && monotonicSeconds() - started < budget {
            attempts += 1
            let tool = try LiveTool(arguments)
            // The whole trace, written in pieces from another thread: the tool sees a live
            // pipe that pauses now and then, so it commits in many small batches.
            let handle = tool.inputHandle
            let writer = Thread { [trace] in
                let bytes = Data(trace.utf8)
                var offset = 0
                while offset < bytes.count {
                    let end = min(bytes.count, offset + 8192)
                    do { try handle.write(contentsOf: bytes[offset..<end]) } catch { break }
                    offset = end
                }
                try? handle.close()
            }
            writer.start()
            usleep(UInt32(Double.random(in: 0.001...window, using: &generator) * 1_000_000))
            let wasRunning = tool.isRunning
            tool.signal(SIGKILL)
            let status = tool.wait()
            while !writer.isFinished { usleep(1_000) }
            let lines = tool.completeStdoutLines
            if wasRunning && status == 128 + SIGKILL {
                kills += 1
                // A kill before the first commit printed nothing: on a loaded machine start-up
                // can outlast the window, so it grows faster until kills land after commits.
                window = min(4, window * (lines.isEmpty ? 1.5 : 1.1))
            } else {
                window = max(0.005, window / 2)
            }
            printed += lines
        }
        #expect(
            kills >= requiredKills,
            "only \(kills) of \(attempts) kills hit a running process in \(Int(monotonicSeconds() - started)) s")
        // The killed runs committed along the way (they printed), so later runs resumed.
        #expect(printed.count > 0, "no killed run got as far as a commit in \(attempts) runs")

        let final = try await runTool(arguments, stdin: trace)
        #expect(final.status == 0, "\(final.stderr)")
        printed += ServiceTrace.lines(of: final.stdout)

        let referenceSet = Set(referenceLines)
        let lost = referenceSet.subtracting(printed).count
        let invented = Set(printed).subtracting(referenceSet).count
        #expect(lost == 0 && invented == 0, "\(lost) notifications lost, \(invented) lines that a clean run does not print")
        #expect(ServiceTrace.files(in: apns) == referenceFiles)
        #expect(try StateStore(path: state).undoneNotifications().isEmpty)
    }

    /// A notification on a live pipe that then goes quiet is marked done while the input is
    /// idle, not only when the next batch comes: a `kill -9` at that quiet moment leaves
    /// nothing to emit again, and a restart prints nothing.
    ///
    /// The kill waits for the done mark itself, read from the state with the `sqlite3` shell,
    /// not for a fixed 0.5 s that a loaded or sanitized run could outlast. A tool that marked
    /// it only with the next batch or at the end of input never gets there (neither comes
    /// before the kill): the wait runs out, and the checks after the kill fail.
    @Test func aKillWhileTheInputIsIdleRepeatsNothing() async throws {
        let directory = try makeTemporaryDirectory("idle-kill")
        defer { try? FileManager.default.removeItem(at: directory) }
        let state = directory.appendingPathComponent("state.db").path
        let apns = directory.appendingPathComponent("apns")
        let arguments = ["watch"] + ServiceTrace.options + ["--state", state, "--apns-dir", apns.path]
        let rock = LandmarkCatalog.embedded[0].coordinate
        let tool = try LiveTool(arguments)
        tool.write("{\"device\":\"car\",\"lat\":\(rock.latitude),\"lon\":\(rock.longitude),\"time\":\"2026-05-01T12:00:00Z\"}\n")
        #expect(tool.waitForStdoutLines(1, timeout: 20))
        let statuses = try await notificationStatuses(in: state, becoming: ["done"])
        #expect(statuses == ["done"], "not marked done while the input was idle: \(statuses)")
        tool.signal(SIGKILL)
        #expect(tool.wait() == 128 + SIGKILL)
        #expect(tool.completeStdoutLines.count == 1)
        #expect(try StateStore(path: state).undoneNotifications().isEmpty, "the notification is still 'decided'")

        let restart = try await runTool(arguments, stdin: "")
        #expect(restart.status == 0, "\(restart.stderr)")
        #expect(restart.stdout.isEmpty, "re-printed: \(restart.stdout)")
        #expect(ServiceTrace.files(in: apns).count == 1)
    }
}
