import Foundation
import Testing

@testable import LandmarkNearServer

/// The parts of `serve --mqtt` that need no broker: the URL, the publish topic template, the
/// OwnTracks message decoder, the connection's state machine, the derived client id.
@Suite("MQTT parts", .suiteTimeLimit)
struct MQTTPartsTests {
    @Test func brokerURLs() throws {
        let plain = try MQTTBrokerURL(parsing: "mqtt://broker.example.com")
        #expect(plain == MQTTBrokerURL.expect(tls: false, host: "broker.example.com", port: 1883, filter: "owntracks/+/+"))
        let full = try MQTTBrokerURL(parsing: "MQTTS://alice:p%40ss:w@[::1]:8884/owntracks/%23")
        #expect(full.usesTLS && full.host == "::1" && full.port == 8884)
        #expect(full.username == "alice" && full.password == "p@ss:w" && full.topicFilter == "owntracks/#")
        #expect(full.description == "mqtts://alice@[::1]:8884/owntracks/#")
        #expect(try MQTTBrokerURL(parsing: "mqtts://h/a/+/c").port == 8883)
        #expect(try MQTTBrokerURL(parsing: "mqtt://h:1/x").topicFilter == "x")
    }

    @Test(arguments: [
        "tcp://h", "mqtt://", "mqtt://:1883", "mqtt://h:0", "mqtt://h:x", "mqtt://[::1", "mqtt://h/a+/b", "mqtt://h/#/b",
        "mqtt://@h", "mqtt://u%zz@h",
    ])
    func badBrokerURLs(text: String) {
        #expect(throws: ServerError.self) { try MQTTBrokerURL(parsing: text) }
    }

    @Test func aBadURLsMessageHidesItsPassword() {
        #expect(MQTTBrokerURL.withoutPassword("mqtt://alice:secret@h:99999/x") == "mqtt://alice:***@h:99999/x")
        do {
            _ = try MQTTBrokerURL(parsing: "mqtt://alice:secret@h:99999/x")
            Issue.record("accepted")
        } catch {
            #expect(!error.message.contains("secret"))
            #expect(error.setting == .mqtt)
        }
    }

    @Test func topicTemplates() throws {
        let template = try MQTTTopicTemplate(parsing: "landmarknear/{device}/event")
        #expect(template.topic(device: "alice/phone") == "landmarknear/alice/phone/event")
        #expect(template.topic(device: "a+b#c") == "landmarknear/a_b_c/event")
        #expect(try MQTTTopicTemplate(parsing: "events").topic(device: "x") == "events")
        for bad in ["", "a/#", "a/+/b", "a/{device", "a/{dev}", "a}"] {
            #expect(throws: ServerError.self) { try MQTTTopicTemplate(parsing: bad) }
        }
    }

    @Test func ownTracksMessages() {
        func decode(_ topic: String, _ text: String) -> MQTTMessageDecoder.Decoded {
            MQTTMessageDecoder.decode(topic: topic, payload: Array(text.utf8), number: 5)
        }
        let location = decode("owntracks/alice/phone", #"{"_type":"location","tid":"ph","lat":52.3,"lon":5.04,"tst":1514455575,"acc":20}"#)
        guard case .location(.fix(let fix, let line)) = location else {
            Issue.record("not a fix: \(location)")
            return
        }
        #expect(fix.device == "alice/phone" && line == 5 && fix.accuracy == 20 && fix.time?.seconds == 1_514_455_575)
        // Subtopics name the same device.
        #expect(MQTTMessageDecoder.device(ofTopic: "owntracks/alice/phone/event") == "alice/phone")
        #expect(MQTTMessageDecoder.device(ofTopic: "owntracks/alice") == nil)
        #expect(decode("owntracks/alice/phone", #"{"_type":"transition","event":"enter"}"#) == .skipped)
        #expect(decode("owntracks/alice/phone", "") == .skipped)
        for (text, reason) in [
            ("{", "the message is not JSON"), ("[1]", "the message is an array, not an object"),
            (#"{"lat":1}"#, #"the message has no "_type""#), (#"{"_type":3}"#, #""_type" is a number, not a string"#),
        ] {
            guard case .bad(.invalid(let issue)) = decode("owntracks/alice/phone", text) else {
                Issue.record("not bad: \(text)")
                continue
            }
            #expect(issue.source == "mqtt:owntracks/alice/phone" && issue.line == 5)
            #expect(issue.reason.hasPrefix(reason), "\(issue.reason)")
        }
        guard case .bad(.invalid(let issue)) = decode("owntracks/alice", #"{"_type":"location","lat":1,"lon":2}"#) else {
            Issue.record("a location without a device")
            return
        }
        #expect(issue.reason.contains("PREFIX/USER/DEVICE"))
        guard case .location(.invalid(let bad)) = decode("owntracks/a/b", #"{"_type":"location","lat":91,"lon":2}"#) else {
            Issue.record("a latitude of 91 was taken")
            return
        }
        #expect(bad.reason.contains("91"))
    }

    @Test func connectionStateMoves() {
        typealias State = MQTTConnectionState
        let lost = State.retrying(reason: "closed")
        #expect(State.allowed(from: .starting, to: .connecting))
        #expect(State.allowed(from: .connecting, to: .connected))
        #expect(State.allowed(from: .connected, to: lost))
        #expect(State.allowed(from: lost, to: .connecting))
        #expect(State.allowed(from: .connected, to: .stopping))
        #expect(State.allowed(from: .stopping, to: .stopped))
        #expect(!State.allowed(from: .starting, to: .connected))
        #expect(!State.allowed(from: lost, to: .connected))
        #expect(!State.allowed(from: .stopped, to: .connecting))
        #expect(!State.allowed(from: .stopping, to: .connected))
        #expect(State.connected.problem == nil)
        #expect(lost.problem == "the MQTT broker is unreachable: closed")
    }

    @Test func derivedClientIDs() {
        let id = MQTTOptions.clientID(forStateFile: "/var/lib/landmark-near/state.db")
        #expect(id.hasPrefix("landmark-near-") && id.count == 30)
        #expect(id == MQTTOptions.clientID(forStateFile: "/var/lib/landmark-near/../landmark-near/state.db"))
        #expect(id != MQTTOptions.clientID(forStateFile: "/var/lib/landmark-near/other.db"))
    }
}

extension MQTTBrokerURL {
    fileprivate static func expect(tls: Bool, host: String, port: Int, filter: String) -> MQTTBrokerURL? {
        try? MQTTBrokerURL(parsing: "\(tls ? "mqtts" : "mqtt")://\(host):\(port)/\(filter)")
    }
}
