import Foundation
import Testing

/// `landmark-near publish --nats`: each fix as the NDJSON line `fixes` prints for it, on subject
/// `STREAM.<p>` with p the documented FNV-1a hash of the device modulo the partition count, in
/// the input's order within a partition; the stream created when missing (subjects `STREAM.*`,
/// file storage, the replicas asked for) and left as it is when it exists. What the stream
/// holds is read back with a third-party client (nats-py, Tests/Counterparts/nats_counterpart.py).
@Suite("publish --nats", .serialized, .suiteTimeLimit)
struct PublishNATSTests {
    @Test func messagesAreFixesLinesSplitByTheDocumentedHash() async throws {
        let directory = try makeTemporaryDirectory("nats-publish")
        defer { try? FileManager.default.removeItem(at: directory) }
        let cluster = try NATSCluster(directory: directory.appendingPathComponent("nats"))
        defer { cluster.kill() }
        let load = try await NATSLoad.make(in: directory.appendingPathComponent("load"))

        let result = try await natsPublish(cluster.urls, stream: "fixes", partitions: 4, replicas: 3, files: load.files)
        #expect(result.status == 0, "\(result.stderr)")
        let summary =
            "landmark-near publish: \(load.records) records read, \(load.fixLines.count) fixes published to fixes (4 partitions), "
            + "0 unreadable"
        #expect(result.stderr.contains(summary), "\(result.stderr)")
        #expect(result.stdout.isEmpty)

        let info = try await natsStreamInfo(cluster.urls, stream: "fixes")
        #expect(info.subjects == ["fixes.*"])
        #expect(info.replicas == 3)
        #expect(info.storage == "file")
        #expect(info.messages == load.fixLines.count)
        #expect(info.leader != nil && info.peers.count == 2, "three copies on three servers: \(info)")

        let messages = try await natsDump(cluster.urls, stream: "fixes")
        #expect(messages.count == load.fixLines.count)
        #expect(Set(messages.map(\.subject)) == ["fixes.0", "fixes.1", "fixes.2", "fixes.3"], "every partition gets devices")
        for partition in 0..<4 {
            let published = messages.filter { $0.subject == "fixes.\(partition)" }.map(\.data)
            let wanted = zip(load.fixLines, load.devices).filter { natsPartition(of: $1, partitions: 4) == partition }.map { $0.0 }
            #expect(published == wanted, "partition \(partition): the fixes lines of its devices, in order")
        }

        // The stream exists now: publish adds to it and leaves its configuration alone.
        let more = [
            #"{"device":"jp","lat":34.0189,"lon":-116.1742,"time":"2026-05-01T13:00:00Z","acc":12}"#,
            #"{"lat":48.69423,"lon":-113.536248,"time":"2026-05-01T13:00:00Z"}"#,
        ]
        let again = try await natsPublish(
            cluster.urls, stream: "fixes", partitions: 4, replicas: 3, stdin: more.joined(separator: "\n") + "\n")
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stderr.contains("2 records read, 2 fixes published to fixes (4 partitions), 0 unreadable"), "\(again.stderr)")
        let after = try await natsDump(cluster.urls, stream: "fixes")
        #expect(after.count == load.fixLines.count + 2)
        let last = after.suffix(2).map { "\($0.subject) \($0.data)" }.sorted()
        let wanted = [
            "fixes.\(natsPartition(of: "jp", partitions: 4)) \(more[0])",
            // no device: `default`, and the line says so as `fixes` does
            "fixes.\(natsPartition(of: "default", partitions: 4)) "
                + #"{"device":"default","lat":48.69423,"lon":-113.536248,"time":"2026-05-01T13:00:00Z"}"#,
        ].sorted()
        #expect(last == wanted)
        #expect(try await natsStreamInfo(cluster.urls, stream: "fixes").replicas == 3)
    }

    /// The hash written three times (the tool's, this file's, the Python counterpart's) gives
    /// one answer: FNV-1a's published test values, and names whose bytes differ only in
    /// Unicode normalisation land by their bytes.
    @Test func theDocumentedHashIsFNV1aOverTheUTF8Bytes() async throws {
        #expect(fnv1a32("".utf8) == 0x811c_9dc5)
        #expect(fnv1a32("a".utf8) == 0xe40c_292c)
        #expect(fnv1a32("foobar".utf8) == 0xbf9c_f968)
        let devices = ["default", "caf\u{E9}", "cafe\u{301}", "fleet/a", #"say "hi""#, "u0/phone", "zz/end", "/dev/pts/1", "🚲 bike"]
        for partitions in [1, 2, 4, 7, 16] {
            let result = try await runCounterpart("nats_counterpart.py", ["hash", String(partitions)] + devices, timeout: 30)
            #expect(result.status == 0, "\(result.stderr)")
            let theirs = result.stdout.split(separator: "\n").compactMap { Int($0) }
            #expect(theirs == devices.map { natsPartition(of: $0, partitions: partitions) }, "\(partitions) partitions")
        }
        #expect(natsPartition(of: "caf\u{E9}", partitions: 1 << 16) != natsPartition(of: "cafe\u{301}", partitions: 1 << 16))
    }

    @Test func unreadableRecordsArePublishedAroundAndCounted() async throws {
        let directory = try makeTemporaryDirectory("nats-publish-bad")
        defer { try? FileManager.default.removeItem(at: directory) }
        let cluster = try NATSCluster(servers: 1, directory: directory.appendingPathComponent("nats"))
        defer { cluster.kill() }
        let input = """
            {"device":"a","lat":34.0113,"lon":-116.1669,"tst":1777636800}
            {"device":"a","lat":91,"lon":-116.1669,"tst":1777636860}
            {"device":"a","lat":34.4,"lon":-116.1669,"tst":1777636920}

            """
        let result = try await natsPublish(
            cluster.urls, stream: "bad", partitions: 2, stdin: input, extra: ["--source-name", "phone.ndjson"])
        #expect(result.status == 65, "\(result.stderr)")
        #expect(result.stderr.contains("phone.ndjson:2: "), "\(result.stderr)")
        #expect(result.stderr.contains("landmark-near publish: 3 records read, 2 fixes published to bad (2 partitions), 1 unreadable"))
        let messages = try await natsDump(cluster.urls, stream: "bad")
        #expect(
            messages.map(\.data) == [
                #"{"device":"a","lat":34.0113,"lon":-116.1669,"time":"2026-05-01T12:00:00Z"}"#,
                #"{"device":"a","lat":34.4,"lon":-116.1669,"time":"2026-05-01T12:02:00Z"}"#,
            ])
        #expect(Set(messages.map(\.subject)) == ["bad.\(natsPartition(of: "a", partitions: 2))"])
        // -q: no summary.
        let quiet = try await natsPublish(cluster.urls, stream: "bad", partitions: 2, stdin: "", extra: ["-q"])
        #expect(quiet.status == 0 && quiet.stderr.isEmpty, "\(quiet.stderr)")
    }

    @Test func unreachableServersAreStatus69() async throws {
        let nobody = "nats://127.0.0.1:\(try freePort())"
        let result = try await natsPublish(
            nobody, stream: "fixes", partitions: 2, stdin: #"{"device":"a","lat":1,"lon":2}"# + "\n", timeout: 120)
        #expect(result.status == 69, "\(result.stderr)")
        #expect(result.stderr.contains("127.0.0.1"), "the message names the server: \(result.stderr)")
    }

    @Test(arguments: [
        StatusCase(["publish", "--nats", "nats://127.0.0.1:1", "--nats-stream", "s"], 64),  // no --partitions
        StatusCase(["publish", "--nats", "nats://127.0.0.1:1", "--partitions", "4"], 64),  // no --nats-stream
        StatusCase(["publish", "--nats-stream", "s", "--partitions", "4"], 64),  // no --nats
        StatusCase(["publish", "--nats", "nats://127.0.0.1:1", "--nats-stream", "s", "--partitions", "0"], 64),
        StatusCase(["publish", "--nats", "nats://127.0.0.1:1", "--nats-stream", "s", "--partitions", "x"], 64),
        StatusCase(["publish", "--nats", "nats://127.0.0.1:1", "--nats-stream", "s", "--partitions", "2", "--replicas", "0"], 64),
        StatusCase(["publish", "--nats", "nats://127.0.0.1:1", "--nats-stream", "s", "--partitions", "2", "--format", "xml"], 64),
        StatusCase(["serve", "--nats", "nats://127.0.0.1:1", "--nats-stream", "s"], 64),  // --state is required with --nats
        StatusCase(["serve", "--nats", "nats://127.0.0.1:1"], 64),  // no --nats-stream (nor --state)
    ])
    func statuses(_ check: StatusCase) async throws {
        let result = try await runTool(check.arguments, stdin: "", timeout: 60)
        #expect(result.status == check.status, "\(result.stderr)")
        #expect(!result.stderr.isEmpty)
    }
}
