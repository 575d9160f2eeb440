@_spi(Inlining) import LandmarkNearCore

/// One MQTT message as the OwnTracks app publishes it (https://owntracks.org/booklet/tech/json/):
/// a JSON object on `PREFIX/USER/DEVICE` (`owntracks/alice/phone`). A `"_type":"location"`
/// object is a fix of device `USER/DEVICE` (the topic's second and third levels, whatever
/// follows them), read by the rules of POST /owntracks (`lat`, `lon`, `tst`, `acc`); any other
/// `_type` (transition, waypoint, card, lwt, ...) and an empty message (a retained one being
/// cleared) are skipped; anything else is bad, and becomes an unreadable record that names the
/// topic, so that the engine reports and counts it in stream order with the fixes.
///
///     MQTTMessageDecoder.decode(topic: "owntracks/alice/phone", payload: bytes, number: 7)
///     // .location(.fix(Fix(device: "alice/phone", ...), line: 7))
enum MQTTMessageDecoder {
    enum Decoded: Equatable {
        /// A location message: a fix, or an unreadable record when its values are bad.
        case location(FixRecord)
        /// Another `_type`, or an empty message.
        case skipped
        /// Not an OwnTracks message: an unreadable record saying why.
        case bad(FixRecord)
    }

    /// `number` counts the messages of the run; it stands for the line in `--explain` and in
    /// the messages about bad ones (`mqtt:owntracks/alice/phone:7: ...`).
    static func decode(topic: String, payload: some Collection<UInt8>, number: Int) -> Decoded {
        let source = "mqtt:" + topic
        func bad(_ reason: String) -> Decoded {
            .bad(.invalid(FixReadIssue(source: source, line: number, reason: reason)))
        }
        if payload.isEmpty { return .skipped }
        let value: JSONValue
        do {
            value = try JSONParser.parse(payload, maximumDepth: requestJSONDepth)
        } catch {
            return bad("the message is not JSON: \(error.description)")
        }
        guard case .object(let object) = value else { return bad("the message is \(value.typeDescription), not an object") }
        guard let type = object["_type"] else { return bad("the message has no \"_type\"") }
        guard case .string(let typeName) = type else { return bad("\"_type\" is \(type.typeDescription), not a string") }
        guard typeName == "location" else { return .skipped }
        guard let device = device(ofTopic: topic) else {
            return bad("the topic is not PREFIX/USER/DEVICE, so the location has no device")
        }
        guard let record = record(of: object, line: number, source: source) else { return .skipped }
        guard case .fix(var fix, let line) = record else { return .location(record) }
        fix.device = device
        return .location(.fix(fix, line: line))
    }

    /// `USER/DEVICE` of `PREFIX/USER/DEVICE[/...]`; nil for a topic of fewer levels.
    static func device(ofTopic topic: String) -> String? {
        let levels = topic.utf8.split(separator: UInt8(ascii: "/"), maxSplits: 3, omittingEmptySubsequences: false)
        guard levels.count >= 3 else { return nil }
        return String(decoding: levels[1], as: UTF8.self) + "/" + String(decoding: levels[2], as: UTF8.self)
    }
}
