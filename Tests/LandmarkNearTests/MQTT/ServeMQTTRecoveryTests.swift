import Foundation
import Testing

/// `serve --mqtt --state`: nothing is lost when `serve` is killed (`kill -9`) or the broker
/// restarts while phones publish. The broker keeps the persistent session (and, restarted
/// cleanly, its persistence file keeps the queued QoS 1 messages); `serve` acknowledges a
/// message only once its fixes are committed, so what it read and had not committed comes
/// again. Every notification `watch` gives for the stream must appear at least once across
/// the runs (a repeat is allowed: at least once).
@Suite("serve: --mqtt, kills and broker restarts", .suiteTimeLimit)
struct ServeMQTTRecoveryTests {
    @Test func killsAndABrokerRestartUnderAStreamLoseNothing() async throws {
        let directory = try makeTemporaryDirectory("serve-mqtt-crash")
        defer { try? FileManager.default.removeItem(at: directory) }
        let broker = try MosquittoBroker(directory: directory)
        defer { broker.kill() }
        let stream = OwnTracksStream(steps: 1500)
        let file = directory.appendingPathComponent("stream.tsv")
        try stream.write(to: file)
        let expected = try await stream.referenceLines()
        let state = directory.appendingPathComponent("s.db").path
        let apns = directory.appendingPathComponent("apns").path
        let arguments = ["--mqtt", broker.url, "--state", state, "--apns-dir", apns]

        var runs: [ServeProcess] = []
        defer { for run in runs { run.kill() } }
        runs.append(try ServeProcess(arguments, ready: "mqtt: subscribed"))
        // About 6 s of messages, a little over 2 ms apart, published through everything below,
        // each after the broker acknowledged the one before (as the app does: in order).
        let publisher = Task { try await publishStream(file, port: broker.port, pace: 0.002, oneAtATime: true, timeout: 240) }

        // kill -9 four times in the middle of the stream, each time once the run has printed a
        // few notifications: most kills land while a batch is read and not yet committed.
        for _ in 0..<4 {
            let current = runs.last!
            #expect(current.waitForLines(3, timeout: 60).count >= 3, "no notification came: \(current.stderr)")
            current.signal(SIGKILL)
            _ = try? current.wait()
            runs.append(try ServeProcess(arguments, ready: "mqtt: subscribed"))
            #expect(runs.last!.stderr.contains("session resumed"), "\(runs.last!.stderr)")
        }
        // Then the broker restarts (SIGTERM: it saves the sessions' queued messages).
        #expect(runs.last!.waitForLines(3, timeout: 60).count >= 3)
        try broker.restart()
        try await publisher.value
        let last = runs.last!
        #expect(
            eventually(timeout: 120) { last.stdoutLines.contains { $0.contains(#""device":"zz/end""#) } },
            "the stream's last notification never came: \(last.stderr)")
        let finished = try last.stop()
        #expect(finished.status == 0, "\(finished.stderr)")
        #expect(finished.stderr.contains("mqtt: connection to 127.0.0.1:\(broker.port) lost"), "\(finished.stderr)")

        let lines = runs.flatMap(\.stdoutLines)
        let seen = Set(lines)
        let missing = expected.filter { !seen.contains($0) }
        let lost = missing.count
        #expect(lost == 0, "\(lost) of \(expected.count) notifications lost, the first: \(missing.first ?? "")")
        let foreign = seen.subtracting(expected)
        let unexpected = foreign.count
        #expect(unexpected == 0, "\(unexpected) notifications watch does not give, the first: \(foreign.first ?? "")")
        // Per device, the first appearances keep the reference's order.
        for device in Set(expected.map(OwnTracksStream.device(of:))) {
            var firstSeen: [String] = []
            for line in lines where OwnTracksStream.device(of: line) == device && !firstSeen.contains(line) { firstSeen.append(line) }
            let inOrder = firstSeen == expected.filter { OwnTracksStream.device(of: $0) == device }
            #expect(inOrder, "device \(device): its notifications out of order")
        }
        // And the .apns files are those of one uninterrupted run.
        let reference = directory.appendingPathComponent("reference")
        let watched = try await runTool(
            ["watch", "--apns-dir", reference.path], stdin: stream.messages.compactMap(\.reference).joined(separator: "\n") + "\n")
        #expect(watched.status == 0)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: apns).sorted()
                == FileManager.default.contentsOfDirectory(atPath: reference.path).sorted())
    }

    /// The commit point, made visible: while another process holds the state's write lock,
    /// `serve` has read a message and cannot commit it; killed then, it must not have
    /// acknowledged it, so the broker sends it to the next run. (libmosquitto queues the
    /// PUBACK before the message callback; a client that let it write would lose the message.)
    @Test func aMessageReadButNotCommittedComesAgain() async throws {
        let directory = try makeTemporaryDirectory("serve-mqtt-uncommitted")
        defer { try? FileManager.default.removeItem(at: directory) }
        let broker = try MosquittoBroker(directory: directory)
        defer { broker.kill() }
        let state = directory.appendingPathComponent("s.db").path
        let arguments = ["--mqtt", broker.url, "--state", state]
        let first = try ServeProcess(arguments, ready: "mqtt: subscribed")
        defer { first.kill() }
        let enter = #"{"_type":"location","tid":"ph","lat":34.0113,"lon":-116.1669,"tst":1777636800,"acc":10}"#
        try await mosquittoPublish(port: broker.port, topic: "owntracks/alice/phone", message: enter)
        #expect(first.waitForLines(1).count == 1, "\(first.stderr)")
        #expect(try await notificationStatuses(in: state, becoming: ["done"]) == ["done"])

        let lock = try StateWriteLock(path: state)
        defer { lock.release() }
        let second = #"{"_type":"location","tid":"ph","lat":34.0113,"lon":-116.1669,"tst":1777636800,"acc":10}"#
        try await mosquittoPublish(port: broker.port, topic: "owntracks/bob/phone", message: second)
        usleep(500_000)  // read, handed to the engine, its commit waiting for the lock (2 s at most)
        #expect(first.stdoutLines.count == 1, "committed despite the lock")
        first.signal(SIGKILL)
        _ = try? first.wait()
        lock.release()

        let restarted = try ServeProcess(arguments, ready: "mqtt: subscribed")
        defer { restarted.kill() }
        let lines = restarted.waitForLines(1)
        let result = try restarted.stop()
        #expect(lines.joined(separator: "\n") + "\n" == result.stdout)
        let bob = lines.count == 1 && lines[0].contains(#""device":"bob/phone""#)
        #expect(bob, "the message was lost: \(result.stdout) \(result.stderr)")
    }
}

extension ServeMQTTRecoveryTests {
    /// `--mqtt-publish` with `--state`: a notification whose line the broker has not
    /// acknowledged stays undone (here the broker is down), so after a `kill -9` the next run
    /// emits it again and publishes it: at least once.
    @Test func aLineTheBrokerNeverGotIsPublishedByTheNextRun() async throws {
        let directory = try makeTemporaryDirectory("serve-mqtt-republish")
        defer { try? FileManager.default.removeItem(at: directory) }
        let broker = try MosquittoBroker(directory: directory)
        defer { broker.kill() }
        let subscriber = ["-h", "127.0.0.1", "-p", String(broker.port), "-q", "1", "-c", "-i", "events-reader", "-t", "landmarknear/#"]
        #expect(try await runProcess("/usr/bin/mosquitto_sub", subscriber + ["-E"], timeout: 20).status == 0)
        let state = directory.appendingPathComponent("s.db").path
        let arguments = ["--mqtt", broker.url, "--mqtt-publish", "landmarknear/{device}/event", "--state", state]
        let first = try ServeProcess(arguments, ready: "mqtt publish: connected")
        defer { first.kill() }
        broker.stop()
        #expect(eventually { first.stderr.contains("mqtt publish: connection to 127.0.0.1:\(broker.port) lost") })
        // Over HTTP, while the broker is away.
        let reply = try HTTPConnection(port: first.port).request("GET", "/osmand?id=car&lat=34.0113&lon=-116.1669&timestamp=1777636800")
        #expect(reply.status == 200)
        #expect(first.waitForLines(1).count == 1)
        usleep(300_000)  // idle: anything acknowledged would be marked done by now
        #expect(try await notificationStatuses(in: state, becoming: ["decided"]) == ["decided"])
        first.signal(SIGKILL)
        _ = try? first.wait()

        try broker.start()
        let second = try ServeProcess(arguments, ready: "mqtt: subscribed")
        defer { second.kill() }
        #expect(try await notificationStatuses(in: state, becoming: ["done"]) == ["done"], "\(second.stderr)")
        let result = try second.stop()
        #expect(result.stdout == first.stdout, "emitted again: \(result.stderr)")
        let received = try await runProcess("/usr/bin/mosquitto_sub", subscriber + ["-C", "1", "-W", "10"], timeout: 20)
        #expect(received.stdout == first.stdout, "\(received.stderr)")
    }
}

/// Another process holding the write lock of a state database (a Python `BEGIN EXCLUSIVE`),
/// until `release()`: the tool's commits wait meanwhile.
final class StateWriteLock: Sendable {
    private let process = ChildProcess()

    init(path: String) throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [
            "-c",
            "import sqlite3, sys, time; c = sqlite3.connect(sys.argv[1], isolation_level=None); c.execute('BEGIN EXCLUSIVE'); print('locked', flush=True); time.sleep(60)",
            path,
        ]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let line = output.fileHandleForReading.availableData
        guard String(decoding: line, as: UTF8.self).hasPrefix("locked") else {
            release()
            throw CounterpartError("could not lock \(path)")
        }
    }

    func release() {
        guard process.isRunning else { return }
        process.signal(SIGKILL)
        process.waitUntilExit()
    }
}
