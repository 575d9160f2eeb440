import Foundation
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `serve --webhook` and `serve --push apns`: the deliveries of `watch` (docs/reference/delivery.md) fed by HTTP
/// posts in real clients' shapes, against the local fakes (Tests/Counterparts), and what
/// SIGTERM does with deliveries still outstanding.
@Suite("serve: deliveries", .suiteTimeLimit)
struct ServeDeliveryTests {
    /// Fixes timed from now (so deliveries do not expire), each a different device entering a
    /// favourite: one notification a request, in the three client shapes (headers and bodies
    /// as in ServeClientShapesTests), posted with the test's HTTP client.
    struct Posts {
        let start = Int(Date().timeIntervalSince1970)

        /// OwnTracks HTTP mode (the shape of its `valid_location_message.json` fixture) at
        /// Turtle Rock, as alice/phone-N.
        func ownTracks(_ n: Int, port: Int) throws -> Int {
            let body =
                #"{"_type":"location","tst":\#(start + n),"tid":"xx","lat":34.011286,"lon":-116.166868,"acc":15,"alt":300,"vac":0,"cog":0,"vel":0,"batt":98}"#
            return try HTTPConnection(port: port).request(
                "POST", "/owntracks",
                headers: [
                    ("Content-Type", "application/json; charset=utf-8"), ("X-Limit-U", "alice"), ("X-Limit-D", "phone-\(n)"),
                ], body: Array(body.utf8)
            ).status
        }

        /// Traccar Client for Android: the OsmAnd query string, POSTed with an empty body.
        func traccarQuery(_ n: Int, port: Int) throws -> Int {
            let query =
                "id=traccar-\(n)&timestamp=\(start + n)&lat=34.011286&lon=-116.166868&speed=0.0&bearing=0.0&altitude=800.0&accuracy=8.0&batt=77.0"
            return try HTTPConnection(port: port).request("POST", "/osmand?" + query).status
        }

        /// Traccar Client (flutter): its JSON body at St. Mary Lake.
        func traccarJSON(_ n: Int, port: Int) throws -> Int {
            let time = Date(timeIntervalSince1970: TimeInterval(start + n)).ISO8601Format()
            let body =
                #"{"location":{"timestamp":"\#(time)","coords":{"latitude":48.69423,"longitude":-113.536248,"accuracy":4.5,"speed":0,"heading":-1,"altitude":3.2},"is_moving":true,"odometer":1234.5,"event":"motionchange","battery":{"level":0.82,"is_charging":false}},"device_id":"flutter-\#(n)"}"#
            return try HTTPConnection(port: port).request(
                "POST", "/osmand", headers: [("Content-Type", "application/json")],
                body: Array(body.utf8)
            ).status
        }

        /// One of each shape, devices numbered from `first`: three notifications.
        func all(from first: Int, port: Int) throws -> [Int] {
            [try ownTracks(first, port: port), try traccarQuery(first + 1, port: port), try traccarJSON(first + 2, port: port)]
        }
    }

    /// The bodies the webhook answered 200 to, by count.
    static func delivered(_ webhook: FakeWebhook) throws -> [String: Int] {
        var counts: [String: Int] = [:]
        for request in try webhook.requests() where request.status == 200 {
            counts[request["body"] as? String ?? "", default: 0] += 1
        }
        return counts
    }

    static func metric(_ name: String, port: Int) throws -> Int? {
        let reply = try HTTPConnection(port: port).request("GET", "/metrics")
        for line in reply.body.split(separator: "\n") where line.hasPrefix(name + " ") {
            return Int(line.split(separator: " ").last ?? "")
        }
        return nil
    }

    /// True when a new connection to `port` is refused: a stopping server closed its listening
    /// socket (its SIGTERM handler does that right after it starts answering fixes 503;
    /// `/healthz` stays 200 on connections already open).
    static func refusesConnections(port: Int) -> Bool {
        do {
            _ = try HTTPConnection(port: port, timeout: 1)
            return false
        } catch HTTPConnection.Failure.connect(let code) {
            return code == ECONNREFUSED
        } catch {
            return false
        }
    }

    @Test func everyNotificationReachesTheWebhookOnceRetriedUntilAccepted() async throws {
        let webhook = try FakeWebhook(script: [503, 200])
        let server = try ServeProcess(["--webhook", webhook.url, "--webhook-header", "X-Landmark-Key: k-123"])
        defer { server.kill() }
        let posts = Posts()
        #expect(try posts.all(from: 0, port: server.port) == [200, 200, 200])
        // Deliveries go on beside the engine: /metrics shows them once the webhook took them.
        let name = #"landmark_near_deliveries_total{channel="push",status="delivered"}"#
        let deadline = Date().addingTimeInterval(20)
        while try Self.metric(name, port: server.port) != 3, Date() < deadline { usleep(50_000) }
        #expect(try Self.metric(name, port: server.port) == 3)
        #expect(try Self.metric(#"landmark_near_deliveries_total{channel="push",status="retried"}"#, port: server.port) == 1)
        let result = try server.stop()
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        for device in ["alice/phone-0", "traccar-1", "flutter-2"] {
            #expect(lines.contains { $0.contains(#""device":"\#(device)""#) }, "\(device)")
        }
        let delivered = try Self.delivered(webhook)
        #expect(delivered == Dictionary(uniqueKeysWithValues: lines.map { ($0, 1) }), "each line delivered once")
        let requests = try webhook.requests()
        #expect(requests.count == 4, "three deliveries and one retry")
        #expect(requests.allSatisfy { $0.header["x-landmark-key"] == "k-123" && $0.header["content-type"] == "application/json" })
        #expect(
            result.stderr.contains("landmark-near serve: delivery: webhook http://127.0.0.1:\(webhook.server.port)/hooks/landmarks"),
            "retries are logged with serve's name: \(result.stderr)")
        #expect(
            result.stderr.contains("; deliveries: 3 delivered, 1 retried, 0 failed, 0 retired (stopped by SIGTERM)"), "\(result.stderr)")
    }

    /// SIGTERM with deliveries outstanding: accepted fixes are processed, and the server waits
    /// for the slow webhook before it exits 0.
    @Test func sigtermWaitsForOutstandingDeliveries() async throws {
        let webhook = try FakeWebhook(delay: 1.5)
        let server = try ServeProcess(["--webhook", webhook.url])
        defer { server.kill() }
        #expect(try Posts().all(from: 0, port: server.port) == [200, 200, 200])
        #expect(try Self.delivered(webhook).isEmpty, "a 200 does not wait for the webhook")
        let stopped = Date()
        let result = try server.stop(signal: SIGTERM, timeout: 30)
        #expect(Date().timeIntervalSince(stopped) >= 1, "it waited for the webhook")
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        #expect(try Self.delivered(webhook) == Dictionary(uniqueKeysWithValues: lines.map { ($0, 1) }))
        #expect(result.stderr.contains("deliveries: 3 delivered, 0 retried, 0 failed, 0 retired (stopped by SIGTERM)"), "\(result.stderr)")
    }

    /// A second signal ends the wait: exit 143, what was not delivered is left in the state's
    /// delivery log, and the next run on the same state sends it, once, and repeats nothing.
    @Test func aSecondSigtermEndsTheWaitAndTheNextRunSendsTheRest() async throws {
        let directory = try makeTemporaryDirectory("serve-deliveries")
        defer { try? FileManager.default.removeItem(at: directory) }
        let state = directory.appendingPathComponent("s.db").path
        do {
            // 503s for the first tries (and any retry, 0.5 s or more later, before the stop), then 200s.
            let webhook = try FakeWebhook(script: [503, 503, 503, 503, 503, 503, 200])
            let first = try ServeProcess(["--state", state, "--webhook", webhook.url])
            defer { first.kill() }
            #expect(try Posts().all(from: 0, port: first.port) == [200, 200, 200])
            let deadline = Date().addingTimeInterval(20)
            while try webhook.requests().count < 3, Date() < deadline { usleep(20_000) }
            first.signal(SIGTERM)
            // The second SIGTERM only once the first was handled: sent close together (100 ms
            // was not always enough on a loaded machine), the two can merge into one pending
            // signal, or one call of the handler, and the server just waits for the deliveries.
            // Its handler stops the listening once it has begun draining, so a refused
            // connection shows the first SIGTERM was taken. That takes milliseconds; the
            // script's 200 (its seventh answer, for a second retry) comes no sooner than 1.5 s
            // after the first tries.
            let draining = Date().addingTimeInterval(20)
            while !Self.refusesConnections(port: first.port), Date() < draining { usleep(5_000) }
            #expect(Self.refusesConnections(port: first.port), "still listening after the first SIGTERM")
            let stopped = try first.stop(signal: SIGTERM, timeout: 20)
            #expect(stopped.status == 143, "\(stopped.stderr)")
            #expect(stopped.stderr.contains("3 left undelivered"), "\(stopped.stderr)")
            #expect(stopped.stderr.contains("(stopped by SIGTERM); SIGTERM ended the wait for deliveries"), "\(stopped.stderr)")
            #expect(try Self.delivered(webhook).isEmpty)
            let lines = stopped.stdout.split(separator: "\n").map(String.init)
            #expect(lines.count == 3)

            // The restart sends what the log holds as not delivered, before any new fix.
            let second = try ServeProcess(["--state", state, "--webhook", webhook.url])
            defer { second.kill() }
            let waitForAll = Date().addingTimeInterval(20)
            while try Self.delivered(webhook).count < 3, Date() < waitForAll { usleep(50_000) }
            let finished = try second.stop()
            #expect(finished.status == 0, "\(finished.stderr)")
            #expect(finished.stdout.isEmpty, "nothing decided again: the first run marked its lines done")
            #expect(try Self.delivered(webhook) == Dictionary(uniqueKeysWithValues: lines.map { ($0, 1) }), "each delivered once")
            #expect(finished.stderr.contains("deliveries: 3 delivered"), "\(finished.stderr)")
        }
        // The webhook is gone (its process ended): the listing runs as a plain child process.
        let listing = try await runTool(["deliveries", "--state", state], stdin: "", timeout: 20)
        let rows = listing.stdout.split(separator: "\n")
        #expect(rows.count == 3)
        #expect(rows.allSatisfy { $0.contains("-> webhook http://127.0.0.1:") && $0.contains(": delivered after") }, "\(listing.stdout)")
    }

    /// With a full delivery queue the engine waits (docs/reference/delivery.md: reading waits), and so do the
    /// fix requests; but a waiting request holds no HTTP thread: with a single one, /healthz
    /// and /metrics are answered meanwhile.
    @Test func aWaitingRequestHoldsNoHTTPThread() async throws {
        let webhook = try FakeWebhook(delay: 2)
        let server = try ServeProcess(["--threads", "1", "--push-queue", "1", "--webhook", webhook.url])
        defer { server.kill() }
        let posts = Posts()
        #expect(try posts.ownTracks(0, port: server.port) == 200)
        // The second notification waits for the first delivery's place in the queue.
        let second = Mutex<Int?>(nil)
        let port = server.port
        let poster = Thread {
            let status = (try? posts.traccarQuery(1, port: port)) ?? -1
            second.withLock { $0 = status }
        }
        poster.start()
        var healthy = 0
        for _ in 0..<5 {
            if try HTTPConnection(port: server.port).request("GET", "/healthz").status == 200 { healthy += 1 }
        }
        let metrics = try HTTPConnection(port: server.port).request("GET", "/metrics")
        #expect(second.withLock { $0 } == nil, "the fix request was still waiting for the engine")
        #expect(healthy == 5 && metrics.status == 200)
        let deadline = Date().addingTimeInterval(20)
        while second.withLock({ $0 }) == nil, Date() < deadline { usleep(20_000) }
        #expect(second.withLock { $0 } == 200)
        let result = try server.stop(signal: SIGTERM, timeout: 30)
        #expect(result.status == 0)
        #expect(result.stderr.contains("deliveries: 2 delivered"), "\(result.stderr)")
    }

    @Test func pushAPNsSendsToEveryTokenOfTheDevice() async throws {
        let apns = try FakeAPNs()
        let directory = try makeTemporaryDirectory("serve-apns-push")
        defer { try? FileManager.default.removeItem(at: directory) }
        // OwnTracks devices are USER/DEVICE; the profile names them so.
        let profiles = try writeProfiles(["alice/phone-0": [testToken(1), testToken(2)], "traccar-1": [testToken(3)]], in: directory)
        let server = try ServeProcess(["--profiles", profiles, "--apns-topic", FakeAPNs.topic] + apns.watchArguments)
        defer { server.kill() }
        let posts = Posts()
        #expect(try posts.ownTracks(0, port: server.port) == 200)
        #expect(try posts.traccarQuery(1, port: server.port) == 200)
        let result = try server.stop(signal: SIGTERM, timeout: 30)
        #expect(result.status == 0, "\(result.stderr)")
        let requests = try apns.requests()
        #expect(requests.filter { $0.status == 200 }.count == 3, "\(requests)")
        for token in [testToken(1), testToken(2), testToken(3)] {
            #expect(requests.forToken(token).count == 1, "token …\(token.suffix(8))")
        }
        #expect(result.stderr.contains("deliveries: 3 delivered, 0 retried, 0 failed, 0 retired"), "\(result.stderr)")
        #expect(!result.stderr.contains(testToken(1)) && !result.stdout.contains(testToken(1)), "tokens never in output")
    }

    @Test func deliveryOptionsAreCheckedBeforeListening() async throws {
        for arguments in [
            ["--webhook", "ftp://example.com/x"], ["--webhook-header", "X-A: b"], ["--push", "apns"],
            ["--push", "fcm"], ["--apns-key-id", "ABC123DEFG"],
        ] {
            let result = try await runTool(["serve", "--listen", "127.0.0.1:0"] + arguments, stdin: "", timeout: 20)
            #expect(result.status == 64, "\(arguments): \(result.stderr)")
            #expect(result.stderr.hasPrefix("landmark-near serve: --"), "\(result.stderr)")
            #expect(!result.stderr.contains("listening"))
        }
    }
}
