import Foundation
import Testing

/// `watch --push apns` against the fake APNs (Tests/Counterparts/fake_apns.py), which verifies
/// the JWT's ES256 signature, its kid/iss/iat, the headers and the body as APNs does.
@Suite(.suiteTimeLimit)
struct APNsDeliveryTests {
    /// "café" with U+00E9 and "cafe" + U+0301 are two devices (docs/reference/fixes.md), so they have two
    /// token lists: a Swift `String` key would hold one of them for both.
    @Test func tokensBelongToTheDeviceNameByteForByte() async throws {
        let apns = try FakeAPNs()
        let directory = try makeTemporaryDirectory("apns-bytes")
        defer { try? FileManager.default.removeItem(at: directory) }
        let composed = "caf\u{E9}"
        let decomposed = "cafe\u{301}"
        // Written by hand: a Swift dictionary would merge the two keys.
        let profiles = directory.appendingPathComponent("profiles.json")
        try #"{"\#(composed)": {"apnsTokens": ["\#(testToken(1))"]}, "\#(decomposed)": {"apnsTokens": ["\#(testToken(2))"]}}"#
            .write(to: profiles, atomically: true, encoding: .utf8)
        var fixes = FixScript()
        fixes.add(decomposed, FixScript.turtleRock)
        let result = try await runTool(
            ["watch", "--profiles", profiles.path, "--apns-topic", FakeAPNs.topic] + apns.watchArguments,
            stdin: fixes.text, timeout: 30)
        #expect(result.status == 0, "\(result.stderr)")
        let requests = try apns.requests()
        #expect(requests.forToken(testToken(2)).count == 1, "\(requests)")
        #expect(requests.forToken(testToken(1)).isEmpty, "the other spelling's token was used")
    }

    @Test func everyNotificationGoesOnceToEveryTokenOfItsDevice() async throws {
        let apns = try FakeAPNs()
        let directory = try makeTemporaryDirectory("apns-all")
        defer { try? FileManager.default.removeItem(at: directory) }
        let profiles = try writeProfiles(["d1": [testToken(1), testToken(2)], "d2": [testToken(3)]], in: directory)
        var fixes = FixScript()
        fixes.add("d1", FixScript.turtleRock)
        fixes.add("d1", FixScript.farAway)
        fixes.add("d1", FixScript.turtleRock)
        fixes.add("d2", FixScript.stMaryLake)
        fixes.add("d3", FixScript.stMaryLake)  // no tokens: printed, not pushed
        let arguments =
            [
                "watch", "--cooldown", "0", "--profiles", profiles, "--bundle-id", FakeAPNs.topic,
                "--push-ttl", "2h",
            ] + apns.watchArguments
        let result = try await runTool(arguments, stdin: fixes.text, timeout: 30)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 4)
        #expect(result.stderr.contains("deliveries: 5 delivered, 0 retried, 0 failed, 0 retired"), "\(result.stderr)")

        let requests = try apns.requests()
        #expect(requests.count == 5)
        #expect(requests.allSatisfy { $0.status == 200 }, "\(requests.map { $0["reason"] ?? "" })")
        #expect(requests.forToken(testToken(1)).count == 2)
        #expect(requests.forToken(testToken(2)).count == 2)
        #expect(requests.forToken(testToken(3)).count == 1)
        let ids = requests.map { $0.header["apns-id"] ?? "" }
        #expect(Set(ids).count == 5, "one apns-id per notification and token")
        for id in ids {
            // RFC 9562: version 5 (name-based, SHA-1), variant 10.
            let hex = Array(id.replacingOccurrences(of: "-", with: ""))
            #expect(hex.count == 32 && hex[12] == "5" && "89ab".contains(hex[16]), "\(id)")
        }
        for request in requests {
            let headers = request.header
            #expect(headers["apns-topic"] == FakeAPNs.topic)
            #expect(headers["apns-push-type"] == "alert")
            #expect(headers["apns-priority"] == "10")
            #expect(headers["content-type"] == "application/json")
            let collapse = headers["apns-collapse-id"] ?? ""
            #expect(!collapse.isEmpty && collapse.utf8.count <= 64)
            let jwt = request["jwt"] as? [String: Any]
            #expect((jwt?["header"] as? [String: String]) == ["alg": "ES256", "kid": FakeAPNs.keyID])
            #expect((jwt?["claims"] as? [String: Any])?["iss"] as? String == FakeAPNs.teamID)
        }
        // One provider token for the whole run.
        #expect(Set(requests.compactMap(\.jwtRaw)).count == 1)
        // Collapse ids: one per device and landmark.
        let d1 = requests.forToken(testToken(1)).map { $0.header["apns-collapse-id"] ?? "" }
        let d2 = requests.forToken(testToken(3)).map { $0.header["apns-collapse-id"] ?? "" }
        #expect(Set(d1).count == 1 && d1 != d2)
        // Expiration = fix time + --push-ttl.
        let expirations = requests.forToken(testToken(1)).compactMap { Int($0.header["apns-expiration"] ?? "") }.sorted()
        #expect(expirations == [fixes.start + 7200, fixes.start + 2 + 7200])
        // The body is stdout's payload without "Simulator Target Bundle".
        let printed = try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any]
        let payload = printed?["payload"] as? [String: Any]
        #expect(payload?["Simulator Target Bundle"] as? String == FakeAPNs.topic)
        let first = requests.forToken(testToken(1)).first { Int($0.header["apns-expiration"] ?? "") == fixes.start + 7200 }
        let body = first?["body"] as? String ?? ""
        #expect(
            body
                == #"{"aps":{"alert":{"title":"Turtle Rock","body":"You are within 5 miles of Turtle Rock."},"category":"LandmarkNear","thread-id":"5280"},"landmarkIndex":0}"#
        )

        // The same input again: the same notifications carry the same apns-ids.
        let again = try await runTool(arguments, stdin: fixes.text, timeout: 30)
        #expect(again.status == 0)
        let second = try apns.requests().dropFirst(5).map { $0.header["apns-id"] ?? "" }
        #expect(Set(second) == Set(ids))
    }

    @Test func retiredTokensAreNeverUsedAgain() async throws {
        let retiring = [testToken(1): ["410"], testToken(2): ["400:BadDeviceToken"], testToken(3): ["400:DeviceTokenNotForTopic"]]
        let apns = try FakeAPNs(script: retiring)
        let directory = try makeTemporaryDirectory("apns-retire")
        defer { try? FileManager.default.removeItem(at: directory) }
        let profiles = try writeProfiles(["d1": [testToken(1), testToken(2), testToken(3), testToken(4)]], in: directory)
        var fixes = FixScript()
        for _ in 0..<3 {
            fixes.add("d1", FixScript.turtleRock)
            fixes.add("d1", FixScript.farAway)
        }
        let result = try await runTool(
            ["watch", "--cooldown", "0", "--profiles", profiles, "--apns-topic", FakeAPNs.topic] + apns.watchArguments,
            stdin: fixes.text, timeout: 30)
        #expect(result.status == 0, "\(result.stderr)")
        let requests = try apns.requests()
        for n in 1...3 {
            #expect(requests.forToken(testToken(n)).count == 1, "token \(n) was used after it was retired")
        }
        #expect(requests.forToken(testToken(4)).count == 3)
        #expect(result.stderr.contains("deliveries: 3 delivered, 0 retried, 0 failed, 3 retired, 6 skipped"), "\(result.stderr)")
        #expect(result.stderr.contains("…\(testToken(1).suffix(8)), device \"d1\", landmark 1001: 410 Unregistered, token retired"))
        #expect(result.stderr.contains("400 DeviceTokenNotForTopic, token retired"))
    }

    @Test func temporaryFailuresAreRetriedUntilDelivered() async throws {
        let apns = try FakeAPNs(script: [
            testToken(1): ["503", "429", "500", "200"], testToken(2): ["goaway", "200"],
            testToken(3): ["drop", "200"],
        ])
        let directory = try makeTemporaryDirectory("apns-retry")
        defer { try? FileManager.default.removeItem(at: directory) }
        let profiles = try writeProfiles(["d1": [testToken(1), testToken(2), testToken(3)]], in: directory)
        var fixes = FixScript()
        fixes.add("d1", FixScript.turtleRock)
        let started = Date()
        let result = try await runTool(
            ["watch", "--profiles", profiles, "--apns-topic", FakeAPNs.topic] + apns.watchArguments,
            stdin: fixes.text, timeout: 40)
        let elapsed = Date().timeIntervalSince(started)
        #expect(result.status == 0, "\(result.stderr)")
        let requests = try apns.requests()
        let first = requests.forToken(testToken(1))
        #expect(first.map(\.status) == [503, 429, 500, 200])
        // Backoff: about 1 s, 2 s, 4 s nominal, each at least half of that.
        #expect(elapsed >= 3.5, "three retries took only \(elapsed) s")
        for n in 1...3 {
            #expect(requests.forToken(testToken(n)).filter { $0.status == 200 }.count == 1)
            #expect(Set(requests.forToken(testToken(n)).map { $0.header["apns-id"] ?? "" }).count == 1, "a retry keeps its apns-id")
        }
        #expect(result.stderr.contains("deliveries: 3 delivered"), "\(result.stderr)")
        #expect(result.stderr.contains("0 failed, 0 retired"))
        #expect(result.stderr.contains("503 ServiceUnavailable; try 2 in"))
    }

    @Test func retriesStopWhenTheExpirationPasses() async throws {
        let apns = try FakeAPNs(script: [testToken(1): ["503"]])
        let directory = try makeTemporaryDirectory("apns-expire")
        defer { try? FileManager.default.removeItem(at: directory) }
        let profiles = try writeProfiles(["d1": [testToken(1)]], in: directory)
        var fixes = FixScript()
        fixes.add("d1", FixScript.turtleRock, timed: false)
        let result = try await runTool(
            ["watch", "--profiles", profiles, "--apns-topic", FakeAPNs.topic, "--push-ttl", "4s"] + apns.watchArguments,
            stdin: fixes.text, timeout: 30)
        // A delivery that failed for good: the run did not do its job (69, EX_UNAVAILABLE).
        #expect(result.status == 69, "\(result.stderr)")
        let requests = try apns.requests()
        #expect(requests.count >= 2, "retried at least once before the expiration")
        let expiration = Double(requests.first?.header["apns-expiration"] ?? "") ?? 0
        #expect(requests.allSatisfy { ($0["time"] as? Double ?? .infinity) <= expiration + 1 })
        #expect(result.stderr.contains("0 delivered") && result.stderr.contains("1 failed"), "\(result.stderr)")
        #expect(result.stderr.contains("expired after"))
    }

    @Test func expiredProviderTokenIsRenewedAtOnce() async throws {
        let apns = try FakeAPNs(script: [testToken(1): ["403:ExpiredProviderToken", "200"]])
        let directory = try makeTemporaryDirectory("apns-renew")
        defer { try? FileManager.default.removeItem(at: directory) }
        let profiles = try writeProfiles(["d1": [testToken(1)], "d2": [testToken(2)]], in: directory)
        var fixes = FixScript()
        fixes.add("d1", FixScript.turtleRock)
        fixes.add("d2", FixScript.turtleRock)
        fixes.add("d1", FixScript.farAway)
        fixes.add("d1", FixScript.turtleRock)
        let result = try await runTool(
            ["watch", "--cooldown", "0", "--profiles", profiles, "--apns-topic", FakeAPNs.topic] + apns.watchArguments,
            stdin: fixes.text, timeout: 30)
        #expect(result.status == 0, "\(result.stderr)")
        // The request goes again at once with a new JWT, with no backoff delay.
        #expect(result.stderr.contains("provider token renewed; try 2 now"), "\(result.stderr)")
        #expect(!result.stderr.contains("; try 2 in "), "\(result.stderr)")
        let requests = try apns.requests()
        let refused = requests.filter { $0["reason"] as? String == "ExpiredProviderToken" }
        #expect(!refused.isEmpty)
        let oldJWT = refused.first?.jwtRaw
        // Every notification delivered once, the later ones with one new token.
        #expect(requests.filter { $0.status == 200 }.count == 3)
        let renewed = Set(requests.filter { $0.status == 200 }.compactMap(\.jwtRaw))
        #expect(renewed.count == 1 && !renewed.contains(oldJWT ?? ""))
        #expect(result.stderr.contains("deliveries: 3 delivered"), "\(result.stderr)")
        #expect(result.stderr.contains("provider token renewed"))
    }

    @Test func keysTokensAndTheJWTNeverAppearInOutput() async throws {
        let apns = try FakeAPNs(script: [testToken(1): ["410"], testToken(2): ["503", "200"]])
        let webhook = try FakeWebhook()
        let directory = try makeTemporaryDirectory("apns-secrets")
        defer { try? FileManager.default.removeItem(at: directory) }
        let profiles = try writeProfiles(["d1": [testToken(1), testToken(2)]], in: directory)
        var fixes = FixScript()
        fixes.add("d1", FixScript.turtleRock)
        let secretHeader = "Bearer webhook-secret-3f9a"
        let result = try await runTool(
            [
                "watch", "--explain", "--profiles", profiles, "--apns-topic", FakeAPNs.topic,
                "--webhook", webhook.url.replacingOccurrences(of: "://", with: "://user:pa55word@") + "?key=q-secret",
                "--webhook-header", "Authorization: \(secretHeader)",
            ] + apns.watchArguments,
            stdin: fixes.text, timeout: 30)
        #expect(result.status == 0, "\(result.stderr)")
        let output = result.stdout + result.stderr
        let keyText = try String(contentsOf: apns.key, encoding: .utf8)
        let keyLines = keyText.split(separator: "\n").filter { !$0.hasPrefix("-----") }
        #expect(!keyLines.isEmpty)
        for line in keyLines { #expect(!output.contains(line)) }
        for token in [testToken(1), testToken(2)] {
            #expect(!output.contains(token))
            #expect(!output.contains(String(token.suffix(9))), "more than the last 8 hex digits shown")
            #expect(output.contains("…" + token.suffix(8)))
        }
        for jwt in try apns.requests().compactMap(\.jwtRaw) {
            #expect(!output.contains(jwt))
            #expect(!output.contains(String(jwt.split(separator: ".").last ?? "")))
        }
        #expect(!output.contains(secretHeader) && !output.contains("pa55word") && !output.contains("q-secret"))
        #expect(try webhook.requests().first?.header["authorization"] == secretHeader)
    }

    @Test func keyFileReadableByOthersGetsAWarning() async throws {
        let directory = try makeTemporaryDirectory("apns-key-mode")
        defer { try? FileManager.default.removeItem(at: directory) }
        let key = directory.appendingPathComponent("AuthKey.p8")
        try Counterparts.makeKey(at: key)
        let arguments = [
            "watch", "--push", "apns", "--apns-key", key.path, "--apns-key-id", FakeAPNs.keyID,
            "--apns-team-id", FakeAPNs.teamID, "--apns-topic", FakeAPNs.topic, "--apns-url", "https://127.0.0.1:9",
        ]
        let private600 = try await runTool(arguments, stdin: "", timeout: 20)
        #expect(private600.status == 0, "\(private600.stderr)")
        #expect(!private600.stderr.contains("readable by group or others"))
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: key.path)
        let shared644 = try await runTool(arguments, stdin: "", timeout: 20)
        #expect(shared644.status == 0)
        #expect(shared644.stderr.contains("warning: --apns-key \(key.path) is readable by group or others (mode 644); chmod 600 it"))
    }

    @Test(arguments: [(SIGINT, Int32(130)), (SIGTERM, Int32(143))])
    func aSignalEndsTheWaitForOutstandingDeliveries(_ signal: Int32, _ status: Int32) throws {
        let apns = try FakeAPNs(delay: 30)
        let directory = try makeTemporaryDirectory("apns-signal")
        defer { try? FileManager.default.removeItem(at: directory) }
        let profiles = try writeProfiles(["d1": [testToken(1)]], in: directory)
        var fixes = FixScript()
        fixes.add("d1", FixScript.turtleRock)
        let input = directory.appendingPathComponent("in.ndjson")
        let stdout = directory.appendingPathComponent("out")
        let stderr = directory.appendingPathComponent("err")
        try fixes.text.write(to: input, atomically: true, encoding: .utf8)
        _ = FileManager.default.createFile(atPath: stdout.path, contents: nil)
        _ = FileManager.default.createFile(atPath: stderr.path, contents: nil)
        let process = ChildProcess()
        process.executableURL = try toolExecutableURL()
        process.arguments = ["watch", "--profiles", profiles, "--apns-topic", FakeAPNs.topic] + apns.watchArguments
        process.standardInput = FileHandle(forReadingAtPath: input.path)
        process.standardOutput = FileHandle(forWritingAtPath: stdout.path)
        process.standardError = FileHandle(forWritingAtPath: stderr.path)
        try process.run()
        // The event line is flushed before the wait begins.
        let deadline = Date().addingTimeInterval(15)
        while (try? Data(contentsOf: stdout))?.isEmpty ?? true, Date() < deadline { usleep(50_000) }
        usleep(300_000)
        kill(process.processIdentifier, signal)
        let stopped = Date()
        while process.isRunning, Date().timeIntervalSince(stopped) < 10 { usleep(50_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        #expect(Date().timeIntervalSince(stopped) < 5, "the wait ends at once")
        let errors = String(decoding: try Data(contentsOf: stderr), as: UTF8.self)
        #expect(process.terminationStatus == status, "\(errors)")
        #expect(errors.contains("1 left undelivered (interrupted while waiting for deliveries)"), "\(errors)")
    }

    struct BadSetup: Sendable, CustomTestStringConvertible {
        var name: String
        var extra: [String]
        var status: Int32
        var message: String
        var testDescription: String { name }
    }

    static let badSetups = [
        BadSetup(
            name: "no key", extra: ["--push", "apns", "--apns-key-id", FakeAPNs.keyID, "--apns-team-id", FakeAPNs.teamID], status: 64,
            message: "needs --apns-key"),
        BadSetup(
            name: "missing key file",
            extra: [
                "--push", "apns", "--apns-key", "/nonexistent/AuthKey.p8", "--apns-key-id", FakeAPNs.keyID, "--apns-team-id",
                FakeAPNs.teamID,
            ], status: 66, message: "no such file"),
        BadSetup(
            name: "not a key",
            extra: ["--push", "apns", "--apns-key", "PROFILES", "--apns-key-id", FakeAPNs.keyID, "--apns-team-id", FakeAPNs.teamID],
            status: 65, message: "not a PEM private key"),
        BadSetup(
            name: "short key id",
            extra: ["--push", "apns", "--apns-key", "KEY", "--apns-key-id", "ABC", "--apns-team-id", FakeAPNs.teamID], status: 64,
            message: "--apns-key-id must be 10"),
        BadSetup(
            name: "plain http",
            extra: [
                "--push", "apns", "--apns-key", "KEY", "--apns-key-id", FakeAPNs.keyID, "--apns-team-id", FakeAPNs.teamID, "--apns-url",
                "http://127.0.0.1:9",
            ], status: 64, message: "https://"),
        BadSetup(name: "apns option without push", extra: ["--apns-key", "KEY"], status: 64, message: "--apns-key needs --push apns"),
        BadSetup(name: "other push", extra: ["--push", "fcm"], status: 64, message: "--push takes 'apns'"),
        BadSetup(name: "header without webhook", extra: ["--webhook-header", "A: b"], status: 64, message: "needs --webhook"),
        BadSetup(
            name: "bad header", extra: ["--webhook", "http://127.0.0.1:9/", "--webhook-header", "X-Secret value"], status: 64,
            message: "'Name: value'"),
    ]

    @Test(arguments: badSetups)
    func badSetupsAreRefusedBeforeReading(_ setup: BadSetup) async throws {
        let directory = try makeTemporaryDirectory("apns-bad")
        defer { try? FileManager.default.removeItem(at: directory) }
        let key = directory.appendingPathComponent("AuthKey.p8")
        try Counterparts.makeKey(at: key)
        let profiles = try writeProfiles(["d1": [testToken(1)]], in: directory)
        let extra = setup.extra.map { $0 == "KEY" ? key.path : $0 == "PROFILES" ? profiles : $0 }
        let topic = extra.contains("--push") ? ["--apns-topic", FakeAPNs.topic] : []
        let result = try await runTool(["watch"] + topic + extra, stdin: "", timeout: 20)
        #expect(result.status == setup.status, "\(result.stderr)")
        #expect(result.stderr.contains(setup.message), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    @Test func aBadTokenInTheProfilesIsBadDataAndIsNotPrinted() async throws {
        let directory = try makeTemporaryDirectory("apns-bad-token")
        defer { try? FileManager.default.removeItem(at: directory) }
        let secret = "zz" + testToken(1).dropFirst(2)
        let profiles = try writeProfiles(["d1": [testToken(2), secret]], in: directory)
        let result = try await runTool(["watch", "--profiles", profiles], stdin: "", timeout: 20)
        #expect(result.status == 65)
        #expect(result.stderr.contains("apnsTokens[1] is not a device token"), "\(result.stderr)")
        #expect(!result.stderr.contains(secret))
    }
}
