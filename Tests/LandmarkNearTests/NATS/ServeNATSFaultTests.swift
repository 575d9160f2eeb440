import Foundation
import Testing

/// `serve --nats` through faults (SPEC 18): `kill -9` of one of three JetStream servers
/// (stream replicas 3) while fixes come in loses no notification; `kill -9` of the instance
/// and a restart on the same `--state` resumes each partition where the state says, printing
/// again only what was in flight; servers that are not there at the start are retried, said
/// so on stderr and in `/healthz`, and used once they come.
@Suite("serve: --nats, faults", .serialized, .suiteTimeLimit)
struct ServeNATSFaultTests {
    @Test func killingOneOfThreeServersUnderLoadLosesNothing() async throws {
        let directory = try makeTemporaryDirectory("serve-nats-server-kill")
        defer { try? FileManager.default.removeItem(at: directory) }
        let cluster = try NATSCluster(directory: directory.appendingPathComponent("nats"))
        defer { cluster.kill() }
        let load = try await NATSLoad.make(in: directory.appendingPathComponent("load"))
        let expected = try await load.reference()
        #expect(expected.count >= 20)
        let chunks = try load.writeChunks(6, into: directory)
        let first = try await natsPublish(cluster.urls, stream: "fixes", partitions: 4, replicas: 3, files: [chunks[0]])
        #expect(first.status == 0, "\(first.stderr)")

        let state = directory.appendingPathComponent("s.db")
        let server = try startNATSServe(
            ServeNATSTests.arguments(cluster.urls, stream: "fixes", state: state), stream: "fixes", partitions: [0, 1, 2, 3])
        defer { server.kill() }
        let port = try #require(connectedPort(server.stderr), "\(server.stderr)")
        let victim = try #require(cluster.server(clientPort: port))
        let survivors = cluster.servers.indices.filter { $0 != victim }.map { cluster.servers[$0].url }.joined(separator: ",")
        var consumedAtKill = -1
        for (index, chunk) in chunks.enumerated().dropFirst() {
            let published = try await natsPublish(cluster.urls, stream: "fixes", partitions: 4, replicas: 3, files: [chunk])
            #expect(published.status == 0, "chunk \(index): \(published.stderr)")
            if index == 2 {
                // serve is reading what just came: kill -9 the server it reads from. The stream
                // elects a new leader among the other two (info answers once it has one), and the
                // next chunks go there.
                consumedAtKill = natsMetric("landmark_near_nats_messages_total", server)
                cluster.kill9(server: victim)
                _ = try await natsStreamInfo(survivors, stream: "fixes")
            }
        }
        let total = load.fixLines.count
        let consumed = eventually(timeout: 90) { natsMetric("landmark_near_nats_messages_total", server) >= total }
        #expect(consumed, "\(natsMetric("landmark_near_nats_messages_total", server)) of \(total) consumed: \(server.stderr)")
        #expect(server.waitForLines(expected.count, timeout: 30).count == expected.count, "\(server.stderr)")
        usleep(300_000)  // a line printed twice would show by now
        let result = try server.stop()
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("nats: disconnected"), "\(result.stderr)")
        #expect(result.stderr.contains("nats: reconnected to nats://127.0.0.1:"), "\(result.stderr)")
        #expect(connectedPort(result.stderr) != port, "reconnected to a server that is alive")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        let difference = perDeviceDifference(lines, expected)
        #expect(difference == nil, "killed \(cluster.servers[victim].name) after \(consumedAtKill) messages: \(difference ?? "")")

        // The killed server comes back on its ports and store and catches up. Its /healthz
        // stays 503 while it catches up on consumers that serve made again after the loss
        // (nats-server 2.9: "consumer ... is not current"), so only JetStream's being up is
        // waited for; the stream's answer says the rest.
        try cluster.start(server: victim, waitForLeader: false)
        let info = try await natsStreamInfo(cluster.servers[victim].url, stream: "fixes")
        #expect(info.messages == total && info.replicas == 3)
    }

    @Test func aKilledInstanceRestartedOnItsStateResumesWhereItStopped() async throws {
        let directory = try makeTemporaryDirectory("serve-nats-instance-kill")
        defer { try? FileManager.default.removeItem(at: directory) }
        let cluster = try NATSCluster(directory: directory.appendingPathComponent("nats"))
        defer { cluster.kill() }
        let load = try await NATSLoad.make(in: directory.appendingPathComponent("load"))
        // Notifications only: they are what --state keeps and emits again (at least once).
        let expected = try await load.reference()
        let expectedKeys = expected.compactMap(EventLines.key(of:))
        #expect(expected.count >= 20 && Set(expectedKeys).count == expected.count)
        let chunks = try load.writeChunks(10, into: directory)
        let created = try await natsPublish(cluster.urls, stream: "fixes", partitions: 4, replicas: 3, files: [chunks[0]])
        #expect(created.status == 0, "\(created.stderr)")

        let state = directory.appendingPathComponent("s.db")
        let arguments = ServeNATSTests.arguments(cluster.urls, stream: "fixes", state: state)
        let first = try startNATSServe(arguments, stream: "fixes", partitions: [0, 1, 2, 3])
        defer { first.kill() }
        // The rest comes a little at a time, through the kill and the restart.
        let urls = cluster.urls
        let rest = Array(chunks.dropFirst())
        let publisher = Task {
            for chunk in rest {
                let result = try await natsPublish(urls, stream: "fixes", partitions: 4, replicas: 3, files: [chunk])
                guard result.status == 0 else { throw CounterpartError("publish \(chunk): \(result.stderr)") }
                try await Task.sleep(for: .milliseconds(300))
            }
        }
        let target = max(3, expected.count / 2)  // about half-way through the stream
        #expect(first.waitForLines(target, timeout: 60).count >= target, "too few notifications came: \(first.stderr)")
        first.signal(SIGKILL)
        _ = try? first.wait()

        let second = try startNATSServe(arguments, stream: "fixes", partitions: [0, 1, 2, 3])
        defer { second.kill() }
        let resumed = consumingSequences(second.stderr, stream: "fixes")
        #expect(resumed.values.contains { $0 > 1 }, "the restart read the stream from its start again: \(second.stderr)")
        try await publisher.value

        // The second run consumes exactly each partition's messages from where it resumed.
        let messages = try await natsDump(cluster.urls, stream: "fixes")
        #expect(messages.count == load.fixLines.count)
        var lastOfPartition: [Int: Int] = [:]
        var remaining = 0
        for message in messages {
            guard let partition = Int(message.subject.dropFirst("fixes.".count)) else { continue }
            lastOfPartition[partition] = message.seq
            if message.seq >= resumed[partition, default: 1] { remaining += 1 }
        }
        for (partition, sequence) in resumed {
            #expect(sequence <= lastOfPartition[partition, default: 0] + 1, "partition \(partition) resumed past its messages")
        }
        let consumed = eventually(timeout: 90) { natsMetric("landmark_near_nats_messages_total", second) >= remaining }
        #expect(consumed, "\(natsMetric("landmark_near_nats_messages_total", second)) of \(remaining) consumed: \(second.stderr)")
        let firstLines = EventLines.completeLines(first.stdout)
        let covered = eventually(timeout: 30) {
            Set((firstLines + second.stdoutLines).compactMap(EventLines.key(of:))).isSuperset(of: expectedKeys)
        }
        #expect(natsMetric("landmark_near_nats_messages_total", second) == remaining, "no more than its partitions' rest")
        let result = try second.stop()
        #expect(result.status == 0, "\(result.stderr)")
        let secondLines = result.stdout.split(separator: "\n").map(String.init)
        #expect(covered)
        expectResumed(first: firstLines, second: secondLines, expected: expected)
        // Every notification is in the state's log once, and done.
        let done = Array(repeating: "done", count: expected.count)
        #expect(try await notificationStatuses(in: state.path, becoming: done) == done)
    }

    /// Over both runs: every notification of `watch` at least once and nothing else; the first
    /// run printed, per device, the start of watch's lines; the second printed again only the
    /// last ones the first had printed (in flight when it died), before anything new; per
    /// device, first appearances keep watch's order.
    private func expectResumed(first: [String], second: [String], expected: [String]) {
        let wanted = EventLines.byDevice(expected)
        for (device, lines) in EventLines.byDevice(first) {
            let name = String(decoding: device, as: UTF8.self)
            #expect(Array(wanted[device, default: []].prefix(lines.count)) == lines, "device \(name): the first run's lines")
        }
        let firstKeys = first.compactMap(EventLines.key(of:))
        let secondKeys = second.compactMap(EventLines.key(of:))
        let expectedKeys = expected.compactMap(EventLines.key(of:))
        let missing = Set(expectedKeys).subtracting(firstKeys + secondKeys)
        #expect(missing.isEmpty, "\(missing.count) of \(expected.count) notifications lost, e.g. \(missing.first.map(\.description) ?? "")")
        let foreign = Set(firstKeys + secondKeys).subtracting(expectedKeys)
        #expect(foreign.isEmpty, "\(foreign.count) notifications watch does not give, e.g. \(foreign.first.map(\.description) ?? "")")
        #expect(Set(secondKeys).count == secondKeys.count, "the second run printed a notification twice")
        let repeated = Set(firstKeys).intersection(secondKeys)
        for device in Set(expectedKeys.map(\.device)) {
            let name = String(decoding: device, as: UTF8.self)
            let mine = firstKeys.filter { $0.device == device }
            let again = secondKeys.filter { $0.device == device }
            let repeats = again.prefix(while: { repeated.contains($0) })
            let repeatCount = again.filter { repeated.contains($0) }.count
            #expect(repeats.count == repeatCount, "device \(name): a repeat after a new notification")
            #expect(Array(repeats) == Array(mine.suffix(repeats.count)), "device \(name): repeated what was not the first run's last")
            var seen = Set<EventLines.Key>()
            let order = (mine + again).filter { seen.insert($0).inserted }
            #expect(order == expectedKeys.filter { $0.device == device }, "device \(name): out of order")
        }
        let note = "\(repeated.count) printed again of \(expected.count)"
        #expect(repeated.count < expected.count, "\(note)")
    }

    @Test func serversUnreachableAtStartAreRetriedReportedAndUsedOnceThere() async throws {
        let directory = try makeTemporaryDirectory("serve-nats-unreachable")
        defer { try? FileManager.default.removeItem(at: directory) }
        let cluster = try NATSCluster(servers: 1, directory: directory.appendingPathComponent("nats"))
        defer { cluster.kill() }
        let load = try await NATSLoad.make(
            in: directory.appendingPathComponent("load"), steps: 120, sparkDevices: 4, sparkSeconds: 30)
        let expected = try await load.reference()
        let published = try await natsPublish(cluster.urls, stream: "fixes", partitions: 2, files: load.files)
        #expect(published.status == 0, "\(published.stderr)")
        cluster.stopAll()  // the stream stays in its store for the server's return

        let state = directory.appendingPathComponent("s.db")
        let server = try ServeProcess(ServeNATSTests.arguments(cluster.urls, stream: "fixes", state: state), startTimeout: 30)
        defer { server.kill() }
        let address = "127.0.0.1:\(cluster.servers[0].clientPort)"
        let said = eventually(timeout: 30) {
            server.stderr.split(separator: "\n").contains { $0.contains("nats") && $0.contains(address) }
        }
        #expect(said, "no word of the server it cannot reach: \(server.stderr)")
        usleep(2_000_000)
        #expect(server.isRunning, "it keeps trying: \(server.stderr)")
        #expect(!server.stderr.contains("nats: connected to"))
        let health = try HTTPConnection(port: server.port).request("GET", "/healthz")
        #expect(health.status == 503 && health.body.lowercased().contains("nats"), "\(health.status) \(health.body)")

        try cluster.startAll()
        let connected = eventually(timeout: 45) { server.stderr.contains("nats: connected to \(cluster.servers[0].url)") }
        #expect(connected, "\(server.stderr)")
        #expect(eventually(timeout: 30) { Set(consumingSequences(server.stderr, stream: "fixes").keys) == [0, 1] }, "\(server.stderr)")
        let consumed = eventually(timeout: 60) { natsMetric("landmark_near_nats_messages_total", server) == load.fixLines.count }
        #expect(consumed, "\(server.stderr)")
        #expect(server.waitForLines(expected.count, timeout: 30).count == expected.count)
        #expect(try HTTPConnection(port: server.port).request("GET", "/healthz").status == 200)
        let result = try server.stop()
        #expect(result.status == 0, "\(result.stderr)")
        let difference = perDeviceDifference(result.stdout.split(separator: "\n").map(String.init), expected)
        #expect(difference == nil, "\(difference ?? "")")
    }
}
