@_spi(Inlining) import LandmarkNearCore

/// OwnTracks' HTTP mode (https://owntracks.org/booklet/tech/http/): each post is one message,
/// a JSON object, or an array of them when the app sends what it had queued. Objects with
/// `"_type":"location"` are fixes (`lat`, `lon`, `tst` epoch seconds, `acc` metres, `tid`);
/// other types (transition, waypoint, card, ...) are skipped as in NDJSON input.
///
///     OwnTracksDecoder.decode(Array(#"{"_type":"location","tid":"s5","lat":52.3,"lon":5.04,"tst":1514455575}"#.utf8))
enum OwnTracksDecoder {
    static let source = "/owntracks"

    /// The body's location records (invalid ones included, to be counted and reported), in
    /// body order; a body that is not JSON, or not objects, is a 400.
    static func decode(_ body: [UInt8]) -> Result<[FixRecord], RequestProblem> {
        let value: JSONValue
        do {
            value = try JSONParser.parse(body, maximumDepth: requestJSONDepth)
        } catch {
            return .failure(RequestProblem(400, "the body is not JSON: \(error.description)"))
        }
        let messages: [JSONValue]
        switch value {
        case .object: messages = [value]
        case .array(let list): messages = list
        default:
            return .failure(
                RequestProblem(400, "expected an OwnTracks message (an object) or an array of them, found \(value.typeDescription)"))
        }
        var records: [FixRecord] = []
        for (position, message) in messages.enumerated() {
            guard case .object(let object) = message else {
                return .failure(RequestProblem(400, "message \(position + 1) is \(message.typeDescription), not an object"))
            }
            guard object["_type"] != nil else {
                return .failure(RequestProblem(400, "message \(position + 1) has no \"_type\""))
            }
            if let record = record(of: object, line: position + 1, source: source) { records.append(record) }
        }
        return .success(records)
    }
}
