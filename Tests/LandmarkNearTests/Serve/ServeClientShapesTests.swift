import Foundation
import Testing

/// Real clients' request shapes, sent by curl to a `serve` on a free port. The shapes come from
/// the clients' public sources:
/// - OwnTracks for Android (github.com/owntracks/android at 25c27bee98362e6ce66ff324fb2eb271edb49623):
///   `net/http/HttpMessageProcessorEndpoint.kt` posts each message as `application/json; charset=utf-8`
///   with `Authorization: Basic`, `X-Limit-U` (user name) and `X-Limit-D` (device id) headers;
///   the bodies are its test fixtures `valid_location_message.json`, `location_multiple_messages.json`
///   and `transition_message.json` (src/test/resources/fixtures).
/// - Traccar Client for Android (github.com/traccar/traccar-client-android at
///   190ad19ac86941b3492d4c18d20269749f8a1cd8): `ProtocolFormatter.formatRequest` builds
///   `?id=&timestamp=<epoch s>&lat=&lon=&speed=&bearing=&altitude=&accuracy=&batt=[&charge=true]`
///   and `RequestManager` sends it as a POST with an empty body.
/// - Traccar Client (github.com/traccar/traccar-client at 37a3d57561206bd44ae17537672b60e3b20ccd96):
///   `lib/preferences.dart` configures flutter_background_geolocation's HTTP sync with the
///   `device_id` param and `_locationTemplate()`; the plugin posts `{"location": <template>, "device_id": ...}`.
@Suite("serve: client request shapes", .suiteTimeLimit)
struct ServeClientShapesTests {
    /// `valid_location_message.json` of OwnTracks' fixtures, verbatim.
    static let ownTracksFixture = """
        {
          "_type": "location",
          "tst": 1778266175,
          "tid": "xx",
          "lat": 0.000,
          "lon": 0.000,
          "acc": 15,
          "alt": 300,
          "vac": 0,
          "cog": 0,
          "vel": 0,
          "batt": 98
        }
        """

    /// `location_multiple_messages.json` (OwnTracks sends queued messages as an array).
    static let ownTracksArrayFixture = """
        [
          {"_type": "location", "tid": "s5", "acc": 1600, "alt": 0.0, "batt": 99, "cog": 45, "conn": "w",
           "lat": 52.3153748, "lon": 5.0408462, "t": "p", "tst": 1514455575, "vac": 0},
          {"_type": "location", "tid": "s5", "acc": 95, "alt": 0.0, "batt": 99, "cog": 56, "conn": "w",
           "lat": 12.3153748, "lon": 15.0408462, "t": "p", "tst": 1514455579, "vac": 0}
        ]
        """

    /// `transition_message.json`: not a location, skipped.
    static let ownTracksTransitionFixture = """
        {"_type": "transition", "acc": 3, "desc": "myregion", "event": "leave", "lat": 52.71234,
         "lon": -1.61234123, "t": "l", "tid": "ce", "tst": 1603209966, "wtst": 1558351273}
        """

    /// Traccar Client's JSON body: its location template filled in as the plugin does, at
    /// Chilkoot Trail (a default favourite).
    static let traccarBody = """
        {"location":{"timestamp":"2026-05-01T12:00:02.123Z","coords":{"latitude":59.560551,"longitude":-135.334571,"accuracy":4.5,"speed":0,"heading":-1,"altitude":3.2},"is_moving":true,"odometer":1234.5,"event":"motionchange","battery":{"level":0.82,"is_charging":false},"activity":{"type":"in_vehicle"},"extras":{},"_":"&id=traccar-7&lat=59.560551&lon=-135.334571&timestamp=2026-05-01T12:00:02.123Z&"},"device_id":"traccar-7"}
        """

    func url(_ server: ServeProcess, _ path: String) -> String { "http://127.0.0.1:\(server.port)\(path)" }

    @Test func ownTracksFixturesAreAnsweredWithAnEmptyArray() async throws {
        let server = try ServeProcess([])
        defer { server.kill() }
        for body in [Self.ownTracksFixture, Self.ownTracksArrayFixture, Self.ownTracksTransitionFixture] {
            let reply = try await curl([
                "-H", "Content-Type: application/json; charset=utf-8", "-H", "X-Limit-U: alice",
                "-H", "X-Limit-D: pixel", "--data-binary", body, url(server, "/owntracks"),
            ])
            #expect(reply.status == 200)
            #expect(reply.body == "[]")
        }
        let result = try server.stop()
        #expect(result.status == 0)
        // 1 + 2 locations (the transition is not a fix), all alice/pixel: the array's first has
        // acc 1600 (> --max-accuracy), its second is older than the first message (stale).
        #expect(result.stderr.contains("3 fixes read, 1 used; dropped: 0 unreadable, 1 accuracy, 1 stale"), "\(result.stderr)")
    }

    @Test func ownTracksLocationNotifiesAsUserSlashDevice() async throws {
        let server = try ServeProcess([])
        defer { server.kill() }
        // The fixture's shape at Turtle Rock (a default favourite).
        let body = Self.ownTracksFixture.replacingOccurrences(of: "\"lat\": 0.000", with: "\"lat\": 34.0113")
            .replacingOccurrences(of: "\"lon\": 0.000", with: "\"lon\": -116.1669")
        let reply = try await curl(["-H", "X-Limit-U: alice", "-H", "X-Limit-D: pixel", "--data-binary", body, url(server, "/owntracks")])
        #expect(reply.status == 200)
        let lines = server.waitForLines(1)
        #expect(lines.count == 1)
        let event = try #require(lines.first)
        #expect(event.contains(#""device":"alice/pixel""#))
        #expect(event.contains(#""time":"2026-05-08T18:49:35Z""#))
        #expect(event.contains(#""id":1001,"name":"Turtle Rock""#))
        // Without the headers the device is the message's tid.
        let second = try await curl(["--data-binary", body.replacingOccurrences(of: "\"xx\"", with: "\"t2\""), url(server, "/owntracks")])
        #expect(second.status == 200)
        #expect(server.waitForLines(2).last?.contains(#""device":"t2""#) == true)
        _ = try server.stop()
    }

    /// A queued array with one bad message: the good ones are processed and the answer is 200
    /// (else the app resends its whole queue for ever); the bad one is counted as unreadable.
    /// Only an array with no good message is a 400.
    @Test func anOwnTracksQueueWithOneBadMessageIsAccepted() async throws {
        let server = try ServeProcess([])
        defer { server.kill() }
        let good = #"{"_type":"location","tid":"q1","lat":34.0113,"lon":-116.1669,"tst":1777640400}"#
        let bad = #"{"_type":"location","tid":"q1","lat":91.5,"lon":-116.1669,"tst":1777640401}"#
        let mixed = try await curl(["--data-binary", "[\(bad),\(good)]", url(server, "/owntracks")])
        #expect(mixed.status == 200, "\(mixed.body)")
        #expect(mixed.body == "[]")
        #expect(server.waitForLines(1).first?.contains(#""device":"q1""#) == true)
        let allBad = try await curl(["--data-binary", "[\(bad)]", url(server, "/owntracks")])
        #expect(allBad.status == 400, "\(allBad.body)")
        #expect(allBad.body.contains("latitude"), "\(allBad.body)")
        let result = try server.stop()
        #expect(result.stderr.contains("2 unreadable"), "\(result.stderr)")
    }

    /// A body that is not JSON at all, to /owntracks or /osmand: 400 naming the fault, and, as a
    /// bad line of /fixes is, a stderr line and a count in landmark_near_unreadable_records_total.
    @Test(arguments: ["/owntracks", "/osmand"])
    func aBodyThatIsNotJSONIsAnsweredLoggedAndCounted(path: String) async throws {
        let server = try ServeProcess([])
        defer { server.kill() }
        let reply = try await curl([
            "-H", "Content-Type: application/json", "--data-binary", #"{"_type":"location","lat":"#, url(server, path),
        ])
        #expect(reply.status == 400, "\(reply.body)")
        #expect(reply.body.contains("not JSON"), "\(reply.body)")
        let metrics = try await curl([url(server, "/metrics")])
        #expect(metrics.body.contains("landmark_near_unreadable_records_total 1\n"), "\(metrics.body)")
        let result = try server.stop()
        #expect(result.stderr.contains("\(path):1: the body is not JSON"), "\(result.stderr)")
        #expect(result.stderr.contains("1 unreadable"), "\(result.stderr)")
    }

    @Test(arguments: ["GET", "POST"])
    func traccarAndroidQueryString(method: String) async throws {
        let server = try ServeProcess([])
        defer { server.kill() }
        let query =
            "id=123456&timestamp=1777636802&lat=59.980167&lon=-152.665167&speed=0.0&bearing=0.0&altitude=12.0&accuracy=5.0&batt=87.0&charge=true"
        let reply = try await curl(["-X", method, url(server, "/osmand?" + query)])
        #expect(reply.status == 200)
        // Silver Salmon Creek is not a default favourite: --favorites all.
        _ = try server.stop()
        let withAll = try ServeProcess(["--favorites", "all"])
        defer { withAll.kill() }
        #expect(try await curl(["-X", method, url(withAll, "/osmand?" + query)]).status == 200)
        let event = try #require(withAll.waitForLines(1).first)
        #expect(event.contains(#""device":"123456","time":"2026-05-01T12:00:02Z""#), "\(event)")
        #expect(event.contains(#""name":"Silver Salmon Creek""#))
        _ = try withAll.stop()
    }

    @Test func traccarClientJSONBody() async throws {
        let server = try ServeProcess([])
        defer { server.kill() }
        let reply = try await curl(["-H", "Content-Type: application/json", "--data-binary", Self.traccarBody, url(server, "/osmand")])
        #expect(reply.status == 200)
        let event = try #require(server.waitForLines(1).first)
        #expect(event.contains(#""device":"traccar-7","time":"2026-05-01T12:00:02.123Z""#), "\(event)")
        #expect(event.contains(#""name":"Chilkoot Trail""#))
        // Without a device_id it is a 400 with the reason.
        let missing = try await curl([
            "--data-binary", Self.traccarBody.replacingOccurrences(of: #","device_id":"traccar-7""#, with: ""), url(server, "/osmand"),
        ])
        #expect(missing.status == 400)
        #expect(missing.body.contains("device_id"))
        _ = try server.stop()
    }

    @Test func fixesAnswerAcceptedAndRejectedLines() async throws {
        let server = try ServeProcess([])
        defer { server.kill() }
        let body = """
            {"device":"d1","lat":48.69423,"lon":-113.536248,"time":"2026-05-01T12:00:00Z"}
            # a comment
            {"device":"d1","lat":91,"lon":0}

            {"class":"SKY","satellites":[]}
            {"device":"d2","lat":"x","lon":0}
            {"device":"d2","lat":34.0113,"lon":-116.1669,"acc":5}
            """
        let reply = try await curl(["--data-binary", body, url(server, "/fixes")])
        #expect(reply.status == 200)
        #expect(
            reply.body
                == #"{"accepted":2,"rejected":[{"line":3,"reason":"latitude 91.0 is outside [-90, 90]"},{"line":6,"reason":"latitude \"x\" is not a number"}]}"#
                + "\n")
        let none = try await curl(["--data-binary", "{\"lat\":1}\nnope\n", url(server, "/fixes")])
        #expect(none.status == 400)
        #expect(none.body.hasPrefix(#"{"accepted":0,"rejected":[{"line":1,"#))
        let lines = server.waitForLines(2)
        #expect(lines.count == 2)
        let result = try server.stop()
        #expect(result.stderr.contains("/fixes:3: latitude 91.0 is outside [-90, 90]"))
        #expect(result.stderr.contains("6 fixes read, 2 used; dropped: 4 unreadable"), "\(result.stderr)")
    }

    @Test func healthAndMetrics() async throws {
        let server = try ServeProcess([])
        defer { server.kill() }
        let health = try await curl([url(server, "/healthz")])
        #expect(health.status == 200 && health.body == "ok\n")
        _ = try await curl([
            "--data-binary", "{\"device\":\"d1\",\"lat\":34.0113,\"lon\":-116.1669}\n{\"lat\":99,\"lon\":0}", url(server, "/fixes"),
        ])
        _ = try await curl([url(server, "/osmand?id=x&lat=nan&lon=0")])
        let metrics = try await curl([url(server, "/metrics")])
        #expect(metrics.status == 200)
        for line in [
            "landmark_near_records_total 3", "landmark_near_fixes_total{result=\"used\"} 1",
            "landmark_near_unreadable_records_total 2", "landmark_near_notifications_total 1",
            "landmark_near_http_responses_total{code=\"200\"} 2", "landmark_near_http_responses_total{code=\"400\"} 1",
            "# TYPE landmark_near_deliveries_total counter",
        ] {
            #expect(metrics.body.contains(line + "\n"), "\(line) in \(metrics.body)")
        }
        #expect(try await curl([url(server, "/nowhere")]).status == 404)
        #expect(try await curl(["-X", "DELETE", url(server, "/fixes")]).status == 405)
        _ = try server.stop()
    }

    /// One keep-alive connection of the test client: fixes of one device in order, each
    /// answered only after it was processed, so a later fix is never taken for a stale one.
    @Test func keepAliveOrderIsArrivalOrder() async throws {
        let server = try ServeProcess(["--events", "all"])
        defer { server.kill() }
        let connection = try HTTPConnection(port: server.port)
        let track: [(Double, Double)] = [(34.2, -116.166868), (34.011286, -116.166868), (34.3, -116.166868), (34.012, -116.166868)]
        for (step, point) in track.enumerated() {
            let reply = try connection.request(
                "GET", "/osmand?id=car&timestamp=\(1_777_636_800 + step * 7200)&lat=\(point.0)&lon=\(point.1)")
            #expect(reply.status == 200)
        }
        let lines = server.waitForLines(3)
        #expect(lines.map { $0.contains("\"event\":\"enter\"") ? "enter" : "exit" } == ["enter", "exit", "enter"])
        let result = try server.stop()
        #expect(result.stderr.contains("4 fixes read, 4 used; dropped: 0 unreadable, 0 accuracy, 0 stale"))
    }
}
