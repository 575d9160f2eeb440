import Foundation
import Testing

@testable import LandmarkNearCore

/// `publish` through the loss of a server (SPEC 18): `kill -9` of the stream's leader while
/// `publish` is sending (stream replicas 3 on three servers) loses no fix and stores none twice,
/// each partition in the order of the input: what the lost leader left unanswered is sent again,
/// in order, and what it had stored is not stored again (Nats-Msg-Id).
@Suite("publish --nats, faults", .serialized, .suiteTimeLimit)
struct PublishNATSFaultTests {
    @Test func killingTheStreamsLeaderWhilePublishingLosesNothingAndDuplicatesNothing() async throws {
        let directory = try makeTemporaryDirectory("publish-nats-leader-kill")
        defer { try? FileManager.default.removeItem(at: directory) }
        let cluster = try NATSCluster(directory: directory.appendingPathComponent("nats"))
        defer { cluster.kill() }
        // 60,000 fixes of 300 devices, a second apart per device.
        let file = directory.appendingPathComponent("fixes.ndjson")
        var text = ""
        for index in 0..<60_000 {
            let second = index / 300
            text += #"{"device":"d\#(index % 300)","lat":\#(34 + Double(index % 300) / 1000),"lon":-116.1,"#
            text += #""time":"2026-05-01T\#(String(format: "%02d:%02d:%02d", 10 + second / 3600, second / 60 % 60, second % 60))Z"}"# + "\n"
        }
        try text.write(to: file, atomically: true, encoding: .utf8)
        let fixes = try await runTool(["fixes", "-q", file.path], timeout: 120)
        try #require(fixes.status == 0, "\(fixes.stderr)")
        let lines = fixes.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 60_000)

        // The stream made first (with the first fix), so that its leader is known.
        let made = try await natsPublish(cluster.urls, stream: "fixes", partitions: 4, replicas: 3, stdin: lines[0] + "\n")
        try #require(made.status == 0, "\(made.stderr)")
        let leaderName = try #require(try await natsStreamInfo(cluster.urls, stream: "fixes").leader)
        let leader = try #require(cluster.servers.firstIndex { $0.name == leaderName })
        let survivors = cluster.servers.indices.filter { $0 != leader }.map { cluster.servers[$0].url }.joined(separator: ",")

        let urls = cluster.urls
        let publishing = Task { try await natsPublish(urls, stream: "fixes", partitions: 4, files: [file.path], timeout: 300) }
        // Killed while the windows go out (a window of 4,096 takes well under a second).
        usleep(1_200_000)
        cluster.kill9(server: leader)
        let result = try await publishing.value
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("60000 records read, 60000 fixes published to fixes (4 partitions)"), "\(result.stderr)")

        // Every fix once, each partition in the input's order: read back by nats-py.
        let messages = try await natsDump(survivors, stream: "fixes")
        #expect(messages.count == 60_001, "\(messages.count) messages; publish said: \(result.stderr)")
        let all = [lines[0]] + lines
        for partition in 0..<4 {
            let subject = "fixes.\(partition)"
            let wanted = all.filter { line in
                let device = (try? JSONParser.parse(line))?["device"]?.stringValue ?? ""
                return natsPartition(of: device, partitions: 4) == partition
            }
            let got = messages.filter { $0.subject == subject }.map(\.data)
            #expect(got == wanted, "\(subject): \(got.count) messages, \(wanted.count) wanted; publish said: \(result.stderr)")
        }
    }
}
