import Foundation
import Synchronization
import Testing

/// fake_apns.py's key maker.
extension Counterparts {
    /// A fresh `.p8`-style key (PKCS#8 EC P-256, mode 600), made by fake_apns.py.
    static func makeKey(at url: URL) throws {
        let process = ChildProcess()
        process.executableURL = try python()
        process.arguments = [folder.appendingPathComponent("fake_apns.py").path, "keygen", url.path]
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw CounterpartError("fake_apns.py keygen failed") }
    }
}

/// A fake APNs in a temporary directory: its test CA, the key it verifies JWTs against, and
/// the log of every request it got.
final class FakeAPNs {
    static let keyID = "ABC123DEFG"
    static let teamID = "DEF123GHIJ"
    static let topic = "com.example.Landmarks.watchkitapp"

    let directory: URL
    let key: URL
    let server: Counterpart

    /// `script`: token -> actions (see fake_apns.py).
    init(script: [String: [String]] = [:], delay: Double = 0) throws {
        directory = try makeTemporaryDirectory("fake-apns")
        key = directory.appendingPathComponent("AuthKey_\(FakeAPNs.keyID).p8")
        try Counterparts.makeKey(at: key)
        let scriptURL = directory.appendingPathComponent("script.json")
        try JSONSerialization.data(withJSONObject: ["tokens": script]).write(to: scriptURL)
        server = try Counterpart(
            script: "fake_apns.py",
            arguments: [
                "serve", "--dir", directory.path, "--key", key.path, "--key-id", FakeAPNs.keyID,
                "--team-id", FakeAPNs.teamID, "--topic", FakeAPNs.topic, "--script", scriptURL.path,
                "--delay", String(delay),
            ])
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    var url: String { "https://127.0.0.1:\(server.port)" }
    var caPath: String { directory.appendingPathComponent("ca.pem").path }

    /// The options that point `watch` at this fake.
    var watchArguments: [String] {
        [
            "--push", "apns", "--apns-key", key.path, "--apns-key-id", FakeAPNs.keyID, "--apns-team-id", FakeAPNs.teamID,
            "--apns-url", url, "--apns-ca", caPath,
        ]
    }

    /// Every request logged so far, in the order answered.
    func requests() throws -> [[String: Any]] {
        try readJSONLines(directory.appendingPathComponent("requests.ndjson"))
    }
}

/// A local webhook receiver (fake_webhook.py).
final class FakeWebhook {
    let directory: URL
    let server: Counterpart

    init(script: [Int] = [200], delay: Double = 0) throws {
        directory = try makeTemporaryDirectory("fake-webhook")
        server = try Counterpart(
            script: "fake_webhook.py",
            arguments: [
                "--log", directory.appendingPathComponent("requests.ndjson").path,
                "--script", script.map(String.init).joined(separator: ","), "--delay", String(delay),
            ])
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    var url: String { "http://127.0.0.1:\(server.port)/hooks/landmarks" }

    func requests() throws -> [[String: Any]] {
        try readJSONLines(directory.appendingPathComponent("requests.ndjson"))
    }
}

func readJSONLines(_ url: URL) throws -> [[String: Any]] {
    guard let data = FileManager.default.contents(atPath: url.path) else { return [] }
    return try String(decoding: data, as: UTF8.self).split(separator: "\n").map { line in
        guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
            throw CounterpartError("not a JSON object: \(line)")
        }
        return object
    }
}

/// Fixes for delivery tests: NDJSON lines, timed from now (so expirations lie ahead).
struct FixScript {
    /// Turtle Rock (1001) and St. Mary Lake (1004), favourites of the embedded catalog.
    static let turtleRock = (34.011286, -116.166868)
    static let stMaryLake = (48.69423, -113.536248)
    static let farAway = (40.0, -100.0)

    let start = Int(Date().timeIntervalSince1970)
    private(set) var lines: [String] = []
    private var second = 0

    mutating func add(_ device: String, _ place: (Double, Double), timed: Bool = true) {
        let time = timed ? ",\"time\":\(start + second)" : ""
        lines.append("{\"device\":\"\(device)\",\"lat\":\(place.0),\"lon\":\(place.1)\(time)}")
        second += 1
    }

    var text: String { lines.map { $0 + "\n" }.joined() }
}

/// A test token: 32 bytes of hex, distinct per `n`.
func testToken(_ n: Int) -> String {
    String(repeating: "0", count: 56) + String(format: "%08x", 0xA0B0_0000 + n)
}

/// Writes `--profiles` JSON: device -> tokens.
func writeProfiles(_ tokens: [String: [String]], in directory: URL) throws -> String {
    let url = directory.appendingPathComponent("profiles.json")
    let object = tokens.mapValues { ["apnsTokens": $0] }
    try JSONSerialization.data(withJSONObject: object).write(to: url)
    return url.path
}

extension Array where Element == [String: Any] {
    func forToken(_ token: String) -> [[String: Any]] { filter { $0["token"] as? String == token } }
    func headers(_ entry: Int) -> [String: String] { self[entry]["headers"] as? [String: String] ?? [:] }
}

extension Dictionary where Key == String, Value == Any {
    var status: Int? { self["status"] as? Int }
    var header: [String: String] { self["headers"] as? [String: String] ?? [:] }
    var jwtRaw: String? { (self["jwt"] as? [String: Any])?["raw"] as? String }
}
