@_spi(Inlining) import LandmarkNearCore

/// `watch` prints one event line a notification, with the payload under `"payload"`
/// (docs/reference/output.md): `{"event":"enter","device":"d1",...,"payload":{"aps":{...},"landmarkIndex":1}}`.
/// `parse` and `validate` take such lines as they take bare payloads, so `watch | parse
/// --ndjson` shows the notifications rather than "Unknown Landmark".
///
///     EventLinePayload.extract(Array(#"{"event":"exit","device":"d1"}"#.utf8))   // .noPayload(event: "exit")
package enum EventLinePayload {
    package enum Extraction: Equatable, Sendable {
        /// The document is an event line carrying a payload: these are its bytes (compact, in
        /// the line's key order, as `watch` wrote them).
        case payload([UInt8])
        /// The document is an event line without a payload: an exit, or an enter that was not
        /// notified (`--events all`). There is no notification to show or check.
        case noPayload(event: String)
        /// Not an event line (a payload, or something else): read the bytes as they are.
        case notAnEventLine
    }

    /// An object with a string `"event"` and no `"aps"` is an event line. Anything that does
    /// not parse is left for the payload reader, which reports it.
    package static func extract(_ bytes: some Collection<UInt8>) -> Extraction {
        guard let first = bytes.first(where: { !ASCIIBlanks.whitespace.contains($0) }), first == UInt8(ascii: "{"),
            case .object(let object)? = try? JSONParser.parse(bytes),
            case .string(let event)? = object["event"], object["aps"] == nil
        else { return .notAnEventLine }
        guard let payload = object["payload"], payload != .null else { return .noPayload(event: event) }
        return .payload(Array(JSONWriter.serialize(payload).utf8))
    }
}
