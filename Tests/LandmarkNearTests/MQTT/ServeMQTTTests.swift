import Foundation
import Testing

/// `serve --mqtt` against a real Mosquitto broker started by each test (Debian's `mosquitto`):
/// OwnTracks messages published with QoS 1 as the app publishes them give the notifications
/// `watch` gives for the same fixes; other `_type`s are counted and skipped, bad messages
/// reported with their topic and counted; `--mqtt-publish` publishes every event line.
@Suite("serve: --mqtt", .suiteTimeLimit)
struct ServeMQTTTests {
    @Test func notificationsAreWatchsForTheSameFixes() async throws {
        let directory = try makeTemporaryDirectory("serve-mqtt")
        defer { try? FileManager.default.removeItem(at: directory) }
        let broker = try MosquittoBroker(directory: directory)
        defer { broker.kill() }
        let stream = OwnTracksStream(steps: 600)
        let file = directory.appendingPathComponent("stream.tsv")
        try stream.write(to: file)
        let expected = try await stream.referenceLines()
        #expect(expected.count >= 20)

        let server = try ServeProcess(["--mqtt", broker.url], ready: "mqtt: subscribed")
        defer { server.kill() }
        #expect(server.stderr.contains("subscribed to owntracks/+/+ (QoS 1, new session)"), "\(server.stderr)")
        #expect(try HTTPConnection(port: server.port).request("GET", "/healthz").status == 200)
        try await publishStream(file, port: broker.port)
        #expect(eventually { metric("landmark_near_mqtt_messages_total", port: server.port) == stream.messages.count })
        let result = try server.stop()
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines == expected, "the notifications of watch over the same fixes, in the same order")
        #expect(
            result.stderr.contains(
                "mqtt: \(stream.messages.count) messages (\(stream.locations) locations, \(stream.others) skipped, 0 bad)"),
            "\(result.stderr)")
        #expect(result.stderr.contains("mqtt: disconnected from 127.0.0.1:\(broker.port)"))
    }

    @Test func badMessagesNameTheirTopicAndAreCounted() async throws {
        let directory = try makeTemporaryDirectory("serve-mqtt-bad")
        defer { try? FileManager.default.removeItem(at: directory) }
        let broker = try MosquittoBroker(directory: directory)
        defer { broker.kill() }
        let server = try ServeProcess(["--mqtt", broker.url], ready: "mqtt: subscribed")
        defer { server.kill() }
        let good = #"{"_type":"location","tid":"ph","lat":34.0113,"lon":-116.1669,"tst":1777636800,"acc":10}"#
        for (topic, message) in [
            ("owntracks/alice/phone", "not json"),
            ("owntracks/alice/phone", #"[{"_type":"location"}]"#),
            ("owntracks/alice/phone", #"{"lat":1,"lon":2}"#),
            ("owntracks/ev\u{2028}il/phone", #"{"_type":"location","lat":91,"lon":0,"tst":1777636800}"#),
            ("owntracks/alice/phone", #"{"_type":"transition","event":"leave"}"#),
            ("owntracks/alice/phone", good),
        ] {
            try await mosquittoPublish(port: broker.port, topic: topic, message: message)
        }
        #expect(eventually { metric("landmark_near_mqtt_messages_total", port: server.port) == 6 })
        #expect(metric(#"landmark_near_mqtt_messages_total{result="bad"}"#, port: server.port) == 3)
        #expect(metric(#"landmark_near_mqtt_messages_total{result="skipped"}"#, port: server.port) == 1)
        #expect(metric(#"landmark_near_mqtt_messages_total{result="location"}"#, port: server.port) == 2)
        #expect(metric("landmark_near_unreadable_records_total", port: server.port) == 4)
        #expect(metric("landmark_near_mqtt_connected", port: server.port) == 1)
        let result = try server.stop()
        #expect(result.stdout.split(separator: "\n").count == 1, "the good fix notifies: \(result.stdout)")
        let errors = result.stderr.split(separator: "\n").map(String.init)
        #expect(
            errors.contains("mqtt:owntracks/alice/phone:1: the message is not JSON: invalid JSON at byte 0: invalid literal"), "\(errors)")
        #expect(errors.contains("mqtt:owntracks/alice/phone:2: the message is an array, not an object"))
        #expect(errors.contains(#"mqtt:owntracks/alice/phone:3: the message has no "_type""#))
        // The topic is made terminal-safe; the location's bad latitude is named.
        #expect(errors.contains { $0.hasPrefix(#"mqtt:owntracks/ev\u{2028}il/phone:4: "#) && $0.contains("91") }, "\(errors)")
    }

    @Test func publishedEventLinesReachASubscriber() async throws {
        let directory = try makeTemporaryDirectory("serve-mqtt-publish")
        defer { try? FileManager.default.removeItem(at: directory) }
        let broker = try MosquittoBroker(directory: directory)
        defer { broker.kill() }
        let stream = OwnTracksStream(steps: 120)
        let file = directory.appendingPathComponent("stream.tsv")
        try stream.write(to: file)
        let expected = try await stream.referenceLines()
        // A persistent session made first: every event published later waits for the subscriber.
        let subscriber = [
            "-h", "127.0.0.1", "-p", String(broker.port), "-q", "1", "-c", "-i", "events-reader", "-t", "landmarknear/#", "-v",
        ]
        let made = try await runProcess("/usr/bin/mosquitto_sub", subscriber + ["-E"], timeout: 20)
        #expect(made.status == 0, "\(made.stderr)")

        let server = try ServeProcess(
            [
                "--mqtt", broker.url, "--mqtt-publish", "landmarknear/{device}/event", "--state",
                directory.appendingPathComponent("s.db").path,
            ],
            ready: "mqtt: subscribed")
        defer { server.kill() }
        try await publishStream(file, port: broker.port)
        #expect(eventually { metric("landmark_near_mqtt_published_total{status=\"acknowledged\"}", port: server.port) == expected.count })
        let result = try server.stop()
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.split(separator: "\n").map(String.init) == expected)
        #expect(result.stderr.contains("\(expected.count) event lines published (\(expected.count) acknowledged)"), "\(result.stderr)")

        let received = try await runProcess("/usr/bin/mosquitto_sub", subscriber + ["-C", String(expected.count), "-W", "20"], timeout: 30)
        #expect(received.status == 0, "\(received.stderr)")
        let published = received.stdout.split(separator: "\n").map(String.init)
        #expect(published == expected.map { "landmarknear/\(OwnTracksStream.device(of: $0))/event \($0)" })
        // Acknowledged by the broker, so marked done: a restart publishes nothing again.
        let done = Array(repeating: "done", count: expected.count)
        #expect(try await notificationStatuses(in: directory.appendingPathComponent("s.db").path, becoming: done) == done)
    }
}
