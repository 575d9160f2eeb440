import Foundation

/// A stream of OwnTracks messages as phones publish them over MQTT, for the `serve --mqtt`
/// tests: `devices` devices (`u0/phone`, `u0/tablet`, `u1/phone`, ...) driving in and out of
/// Turtle Rock's and St. Mary Lake's radius, one timed location a step (`_type`, `tid`, `lat`,
/// `lon`, `tst`, `acc`), with transition, waypoint, card and lwt messages mixed in on the same
/// topics, and last a location of `zz/end` entering Turtle Rock: its notification tells a test
/// that everything before it was processed.
struct OwnTracksStream {
    struct Message {
        var topic: String
        var payload: String
        /// The same fix as an NDJSON line for `watch` (nil for other `_type`s).
        var reference: String?
    }

    var messages: [Message] = []

    init(steps: Int, devices: Int = 6) {
        for step in 0..<steps {
            let index = step % devices
            let device = "u\(index / 2)/\(index % 2 == 0 ? "phone" : "tablet")"
            let topic = "owntracks/" + device
            let inside = (step / devices / 3) % 2 == 0
            let (lat, lon) =
                index < devices / 2 ? (inside ? 34.0113 : 34.4, -116.1669) : (inside ? 48.69423 : 49.1, -113.536248)
            let time = 1_777_636_800 + step * 60
            let tid = String(device.split(separator: "/")[1].prefix(2))
            messages.append(
                Message(
                    topic: topic,
                    payload: #"{"_type":"location","tid":"\#(tid)","lat":\#(lat),"lon":\#(lon),"tst":\#(time),"acc":12}"#,
                    reference: #"{"device":"\#(device)","lat":\#(lat),"lon":\#(lon),"tst":\#(time),"acc":12}"#))
            switch step % 17 {
            case 3:
                messages.append(
                    Message(
                        topic: topic, payload: #"{"_type":"transition","event":"enter","desc":"home","tst":\#(time),"wtst":1,"t":"c"}"#))
            case 7:
                messages.append(Message(topic: topic, payload: #"{"_type":"waypoint","desc":"home","lat":34,"lon":-116,"rad":50,"tst":1}"#))
            case 11: messages.append(Message(topic: topic, payload: #"{"_type":"card","name":"Someone","face":""}"#))
            case 13: messages.append(Message(topic: topic, payload: #"{"_type":"lwt","tst":\#(time)}"#))
            default: break
            }
        }
        let end = 1_777_636_800 + steps * 60
        messages.append(
            Message(
                topic: "owntracks/zz/end", payload: #"{"_type":"location","tid":"zz","lat":34.0113,"lon":-116.1669,"tst":\#(end),"acc":5}"#,
                reference: #"{"device":"zz/end","lat":34.0113,"lon":-116.1669,"tst":\#(end),"acc":5}"#))
    }

    var locations: Int { messages.count { $0.reference != nil } }
    var others: Int { messages.count - locations }

    /// The file `mqtt_stream.py` publishes: TOPIC, a tab, the payload.
    func write(to url: URL) throws {
        try messages.map { "\($0.topic)\t\($0.payload)\n" }.joined().write(to: url, atomically: true, encoding: .utf8)
    }

    /// What `watch` prints for the same fixes in the same order: every notification `serve`
    /// must print.
    func referenceLines() async throws -> [String] {
        let input = messages.compactMap(\.reference).joined(separator: "\n") + "\n"
        let result = try await runTool(["watch"], stdin: input)
        guard result.status == 0 else { throw CounterpartError("watch failed: \(result.stderr)") }
        return result.stdout.split(separator: "\n").map(String.init)
    }

    /// The device of an event line (its `"device"`).
    static func device(of line: String) -> String {
        guard let start = line.range(of: #""device":""#) else { return "" }
        return String(line[start.upperBound...].prefix { $0 != "\"" })
    }
}

/// Runs `mqtt_stream.py` to its end: the stream published with QoS 1, every message
/// acknowledged by the broker (through broker restarts).
/// `oneAtATime`: each message waits for the PUBACK of the one before (the order survives
/// reconnections of the publisher).
func publishStream(_ file: URL, port: Int, pace: Double = 0, oneAtATime: Bool = false, timeout: Double = 120) async throws {
    let result = try await runCounterpart(
        "mqtt_stream.py",
        ["--port", String(port), "--messages", file.path, "--pace", String(pace), "--timeout", String(timeout - 10)]
            + (oneAtATime ? ["--one-at-a-time"] : []),
        timeout: timeout)
    guard result.status == 0 else { throw CounterpartError("mqtt_stream.py: \(result.stderr)") }
}

/// A counter of `serve`'s GET /metrics (the sum over its label sets), or -1.
func metric(_ name: String, port: Int) -> Int {
    guard let reply = try? HTTPConnection(port: port).request("GET", "/metrics") else { return -1 }
    var total = 0
    var found = false
    for line in reply.body.split(separator: "\n") where line.hasPrefix(name + " ") || line.hasPrefix(name + "{") {
        total += Int(line.split(separator: " ").last ?? "") ?? 0
        found = true
    }
    return found ? total : -1
}

/// Waits (at most `timeout` seconds) until `condition` holds; whether it did.
func eventually(timeout: Double = 30, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if condition() { return true }
        usleep(20_000)
    }
    return condition()
}
