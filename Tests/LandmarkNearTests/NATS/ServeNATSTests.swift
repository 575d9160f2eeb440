import Foundation
import Testing

/// `serve --nats` against real NATS servers with JetStream (Debian's `nats-server`) started by
/// each test: one instance, or several owning disjoint partitions with states of their own,
/// print the notifications one `watch` prints over the same fixes (per device, in order); a
/// message that is no readable fix is reported with its subject and sequence, counted and
/// acknowledged; fixes put on the stream by another producer that follows the documented hash
/// are consumed as `publish`'s are.
@Suite("serve: --nats", .serialized, .suiteTimeLimit)
struct ServeNATSTests {
    static let options = ["--events", "all"]

    static func arguments(_ urls: String, stream: String, state: URL, _ extra: [String] = []) -> [String] {
        ["--nats", urls, "--nats-stream", stream, "--state", state.path] + extra
    }

    @Test func oneInstanceGivesWatchsNotifications() async throws {
        let directory = try makeTemporaryDirectory("serve-nats")
        defer { try? FileManager.default.removeItem(at: directory) }
        let cluster = try NATSCluster(servers: 1, directory: directory.appendingPathComponent("nats"))
        defer { cluster.kill() }
        let load = try await NATSLoad.make(in: directory.appendingPathComponent("load"))
        let expected = try await load.reference(Self.options)
        #expect(expected.count >= 20, "the load should notify")
        let published = try await natsPublish(cluster.urls, stream: "fixes", partitions: 4, files: load.files)
        #expect(published.status == 0, "\(published.stderr)")

        let state = directory.appendingPathComponent("s.db")
        let arguments = Self.arguments(cluster.urls, stream: "fixes", state: state, Self.options)
        let server = try startNATSServe(arguments, stream: "fixes", partitions: [0, 1, 2, 3])
        defer { server.kill() }
        #expect(server.stderr.contains("nats: connected to \(cluster.servers[0].url)"), "\(server.stderr)")
        #expect(consumingSequences(server.stderr, stream: "fixes") == [0: 1, 1: 1, 2: 1, 3: 1], "a new state starts at the start")
        let consumed = eventually(timeout: 60) { natsMetric("landmark_near_nats_messages_total", server) == load.fixLines.count }
        #expect(consumed, "\(natsMetric("landmark_near_nats_messages_total", server)) of \(load.fixLines.count): \(server.stderr)")
        #expect(server.waitForLines(expected.count, timeout: 30).count == expected.count)
        #expect(natsMetric("landmark_near_nats_duplicates_total", server) == 0)
        #expect(natsMetric("landmark_near_unreadable_records_total", server) == 0)
        #expect(try HTTPConnection(port: server.port).request("GET", "/healthz").status == 200)
        let result = try server.stop()
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        let difference = perDeviceDifference(lines, expected)
        #expect(difference == nil, "\(difference ?? "")")
        #expect(lines.sorted() == expected.sorted())

        // Everything was committed: a restart resumes each partition after its last message
        // and has nothing to print.
        let messages = try await natsDump(cluster.urls, stream: "fixes")
        var next: [Int: Int] = [:]
        for message in messages {
            if let partition = Int(message.subject.dropFirst("fixes.".count)) { next[partition] = message.seq + 1 }
        }
        let restarted = try startNATSServe(arguments, stream: "fixes", partitions: [0, 1, 2, 3])
        defer { restarted.kill() }
        #expect(consumingSequences(restarted.stderr, stream: "fixes") == next, "\(restarted.stderr)")
        usleep(500_000)
        #expect(natsMetric("landmark_near_nats_messages_total", restarted) <= 0)
        let again = try restarted.stop()
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stdout.isEmpty)

        // The stream deleted and made again under its name: its sequences start again at 1,
        // and the state's positions (of the old stream) must not skip them. The same fixes
        // again are stale for the devices the state remembers: nothing to print.
        let deleted = try await runCounterpart("nats_counterpart.py", ["delete", cluster.urls, "fixes"], timeout: 60)
        #expect(deleted.status == 0, "\(deleted.stderr)")
        let republished = try await natsPublish(cluster.urls, stream: "fixes", partitions: 4, files: load.files)
        #expect(republished.status == 0 && republished.stderr.contains("made stream fixes"), "\(republished.stderr)")
        let anew = try startNATSServe(arguments, stream: "fixes", partitions: [0, 1, 2, 3])
        defer { anew.kill() }
        #expect(anew.stderr.contains("nats: stream fixes was made again since the state read it"), "\(anew.stderr)")
        #expect(consumingSequences(anew.stderr, stream: "fixes") == [0: 1, 1: 1, 2: 1, 3: 1], "\(anew.stderr)")
        let reread = eventually(timeout: 60) { natsMetric("landmark_near_nats_messages_total", anew) == load.fixLines.count }
        #expect(reread, "\(natsMetric("landmark_near_nats_messages_total", anew)) of \(load.fixLines.count): \(anew.stderr)")
        let third = try anew.stop()
        #expect(third.status == 0 && third.stdout.isEmpty, "\(third.stdout)\n\(third.stderr)")
    }

    @Test func twoInstancesOnDisjointPartitionsTogetherGiveWatchsNotifications() async throws {
        let directory = try makeTemporaryDirectory("serve-nats-two")
        defer { try? FileManager.default.removeItem(at: directory) }
        let cluster = try NATSCluster(servers: 1, directory: directory.appendingPathComponent("nats"))
        defer { cluster.kill() }
        let load = try await NATSLoad.make(in: directory.appendingPathComponent("load"))
        let expected = try await load.reference(Self.options)
        let published = try await natsPublish(cluster.urls, stream: "fixes", partitions: 4, files: load.files)
        #expect(published.status == 0, "\(published.stderr)")

        let first = try startNATSServe(
            Self.arguments(
                cluster.urls, stream: "fixes", state: directory.appendingPathComponent("a.db"),
                ["--nats-partitions", "0,1"] + Self.options),
            stream: "fixes", partitions: [0, 1])
        defer { first.kill() }
        let second = try startNATSServe(
            Self.arguments(
                cluster.urls, stream: "fixes", state: directory.appendingPathComponent("b.db"),
                ["--nats-partitions", "2-3"] + Self.options),
            stream: "fixes", partitions: [2, 3])
        defer { second.kill() }
        let expectedByDevice = EventLines.byDevice(expected)
        for (server, partitions) in [(first, [0, 1]), (second, [2, 3])] {
            let count = load.messages(in: Set(partitions), of: 4)
            let consumed = eventually(timeout: 60) { natsMetric("landmark_near_nats_messages_total", server) == count }
            #expect(consumed, "partitions \(partitions): \(natsMetric("landmark_near_nats_messages_total", server)) of \(count)")
            #expect(Set(consumingSequences(server.stderr, stream: "fixes").keys) == Set(partitions), "\(server.stderr)")
            let lines = expectedByDevice.filter { owned(partitions, $0.key) }.values.map(\.count).reduce(0, +)
            #expect(server.waitForLines(lines, timeout: 30).count == lines, "partitions \(partitions)")
        }
        let results = try [first.stop(), second.stop()]
        for result in results { #expect(result.status == 0, "\(result.stderr)") }
        let lines = results.map { $0.stdout.split(separator: "\n").map(String.init) }
        // Each instance printed only its own partitions' devices...
        for (index, partitions) in [[0, 1], [2, 3]].enumerated() {
            let strays = lines[index].filter { !owned(partitions, EventLines.device(of: $0) ?? []) }
            #expect(strays.isEmpty, "instance \(index + 1) printed devices of other partitions: \(strays.prefix(3))")
        }
        // ... and together they printed watch's notifications, per device in order.
        let difference = perDeviceDifference(lines[0] + lines[1], expected)
        #expect(difference == nil, "\(difference ?? "")")
        #expect((lines[0] + lines[1]).sorted() == expected.sorted())
    }

    /// Whether a device (its UTF-8 bytes) falls in one of `partitions` of 4.
    private func owned(_ partitions: [Int], _ device: [UInt8]) -> Bool {
        partitions.contains(Int(fnv1a32(device) % 4))
    }

    @Test func aBadMessageIsReportedCountedAcknowledgedAndTheStreamGoesOn() async throws {
        let directory = try makeTemporaryDirectory("serve-nats-bad")
        defer { try? FileManager.default.removeItem(at: directory) }
        let cluster = try NATSCluster(servers: 1, directory: directory.appendingPathComponent("nats"))
        defer { cluster.kill() }
        // A device of partition 0 of 2, so the bad messages sit between its fixes.
        let device = try #require((0..<1000).map { "walker\($0)" }.first { natsPartition(of: $0, partitions: 2) == 0 })
        let fixes = [
            #"{"device":"\#(device)","lat":34.0113,"lon":-116.1669,"time":"2026-05-01T12:00:00Z"}"#,  // enters Turtle Rock
            #"{"device":"\#(device)","lat":34.4,"lon":-116.1669,"time":"2026-05-01T12:05:00Z"}"#,  // leaves it
            #"{"device":"\#(device)","lat":48.69423,"lon":-113.536248,"time":"2026-05-01T14:00:00Z"}"#,  // enters St. Mary Lake
        ]
        let watched = try await runTool(["watch"] + Self.options, stdin: fixes.joined(separator: "\n") + "\n")
        let expected = watched.stdout.split(separator: "\n").map(String.init)
        #expect(expected.count == 3, "\(watched.stdout)")

        let created = try await natsPublish(cluster.urls, stream: "bad", partitions: 2, stdin: fixes[0] + "\n")
        #expect(created.status == 0, "\(created.stderr)")
        let state = directory.appendingPathComponent("s.db")
        let arguments = Self.arguments(cluster.urls, stream: "bad", state: state, Self.options)
        let server = try startNATSServe(arguments, stream: "bad", partitions: [0, 1])
        defer { server.kill() }
        #expect(server.waitForLines(1, timeout: 30).count == 1, "\(server.stderr)")

        let notJSON = try await natsPublishRaw(cluster.urls, subject: "bad.0", "not json")
        let badLatitude = try await natsPublishRaw(
            cluster.urls, subject: "bad.0", #"{"device":"\#(device)","lat":91,"lon":0,"time":"2026-05-01T12:01:00Z"}"#)
        let rest = try await natsPublish(cluster.urls, stream: "bad", partitions: 2, stdin: fixes[1...].joined(separator: "\n") + "\n")
        #expect(rest.status == 0, "\(rest.stderr)")

        #expect(eventually(timeout: 30) { natsMetric("landmark_near_nats_messages_total", server) == 5 }, "\(server.stderr)")
        #expect(server.waitForLines(3, timeout: 30).count == 3, "the stream went on after the bad messages: \(server.stderr)")
        #expect(natsMetric("landmark_near_unreadable_records_total", server) == 2)
        #expect(natsMetric("landmark_near_nats_unreadable_total", server) == 2)
        let result = try server.stop()
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.split(separator: "\n").map(String.init) == expected)
        let errors = result.stderr.split(separator: "\n").map(String.init)
        let notJSONLine = errors.first { $0.contains("nats:bad.0:\(notJSON): ") }
        #expect(notJSONLine.map { $0.count > "nats:bad.0:\(notJSON): ".count + 5 } == true, "a reason: \(result.stderr)")
        let latitudeLine = errors.first { $0.contains("nats:bad.0:\(badLatitude): ") }
        #expect(latitudeLine?.contains("91") == true, "the bad latitude named: \(result.stderr)")

        // Acknowledged and committed: a restart does not read them again.
        let restarted = try startNATSServe(arguments, stream: "bad", partitions: [0, 1])
        defer { restarted.kill() }
        let last = try await natsStreamInfo(cluster.urls, stream: "bad").lastSequence
        #expect(last == 5)
        #expect(consumingSequences(restarted.stderr, stream: "bad")[0] == last + 1, "\(restarted.stderr)")
        usleep(500_000)
        let again = try restarted.stop()
        #expect(again.status == 0)
        #expect(!again.stderr.contains("nats:bad.0:"), "\(again.stderr)")
        #expect(again.stdout.isEmpty)
    }

    /// Another producer (nats-py, its own FNV-1a) that follows SPEC 18's hash puts the same
    /// messages on the same subjects as `publish`, and `serve` consumes them alike; the stream is
    /// the producer's, so `--nats-partitions` names the partitions.
    @Test func anIndependentProducersFixesAreConsumedAsPublishs() async throws {
        let directory = try makeTemporaryDirectory("serve-nats-producer")
        defer { try? FileManager.default.removeItem(at: directory) }
        let cluster = try NATSCluster(servers: 1, directory: directory.appendingPathComponent("nats"))
        defer { cluster.kill() }
        let load = try await NATSLoad.make(in: directory.appendingPathComponent("load"), steps: 300, sparkDevices: 8, sparkSeconds: 60)
        let expected = try await load.reference(Self.options)
        let file = directory.appendingPathComponent("fixes.ndjson")
        try load.writeNDJSON(to: file)
        let produced = try await runCounterpart(
            "nats_counterpart.py", ["publish-fixes", cluster.urls, "third", "4", file.path], timeout: 180)
        #expect(produced.status == 0, "\(produced.stderr)")
        #expect(produced.stdout == "published \(load.fixLines.count)\n")
        let published = try await natsPublish(cluster.urls, stream: "own", partitions: 4, files: load.files)
        #expect(published.status == 0, "\(published.stderr)")
        let theirs = try await natsDump(cluster.urls, stream: "third")
        let ours = try await natsDump(cluster.urls, stream: "own")
        #expect(theirs.count == load.fixLines.count && ours.count == load.fixLines.count)
        for partition in 0..<4 {
            let producers = theirs.filter { $0.subject == "third.\(partition)" }.map(\.data)
            let publishs = ours.filter { $0.subject == "own.\(partition)" }.map(\.data)
            #expect(producers == publishs, "partition \(partition): the producer's messages differ from publish's")
        }

        let state = directory.appendingPathComponent("s.db")
        let server = try startNATSServe(
            Self.arguments(cluster.urls, stream: "third", state: state, ["--nats-partitions", "0-3"] + Self.options),
            stream: "third", partitions: [0, 1, 2, 3])
        defer { server.kill() }
        #expect(eventually(timeout: 60) { natsMetric("landmark_near_nats_messages_total", server) == load.fixLines.count })
        #expect(server.waitForLines(expected.count, timeout: 30).count == expected.count)
        let result = try server.stop()
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        let difference = perDeviceDifference(lines, expected)
        #expect(difference == nil, "\(difference ?? "")")
    }
}
