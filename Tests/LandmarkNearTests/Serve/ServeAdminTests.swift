import Foundation
import Testing

/// `serve`'s admin endpoints (docs/reference/serve.md), with real curl against the built
/// server: landmarks and profiles changed while it runs, validated as catalog entries are,
/// indexes that never shift, the effect on notifications, and admin users.
@Suite("serve: admin endpoints", .suiteTimeLimit)
struct ServeAdminTests {
    /// A Point Feature at (lat, lon).
    static func feature(_ name: String, lat: Double, lon: Double, favorite: Bool = true, extra: String = "") -> String {
        #"{"type":"Feature","geometry":{"type":"Point","coordinates":[\#(lon),\#(lat)]},"properties":{"name":"\#(name)","isFavorite":\#(favorite)\#(extra)}}"#
    }

    static func json(_ text: String) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] ?? [:]
    }

    static func put(_ port: Int, _ path: String, _ body: String, _ auth: [String] = []) async throws -> (status: Int, body: String) {
        let reply = try await curl(auth + ["-X", "PUT", "--data-binary", body, "http://127.0.0.1:\(port)\(path)"])
        return (reply.status, reply.body)
    }

    static func get(_ port: Int, _ path: String, _ method: String = "GET", _ auth: [String] = []) async throws -> (
        status: Int, body: String
    ) {
        let reply = try await curl(auth + ["-X", method, "http://127.0.0.1:\(port)\(path)"])
        return (reply.status, reply.body)
    }

    /// The (index, id) pairs of `GET /landmarks`.
    static func listed(_ port: Int) async throws -> [(index: Int, id: Int)] {
        let reply = try await get(port, "/landmarks")
        #expect(reply.status == 200)
        let features = json(reply.body)["features"] as? [[String: Any]] ?? []
        return features.map { feature in
            let properties = feature["properties"] as? [String: Any] ?? [:]
            return (feature["landmarkIndex"] as? Int ?? -1, properties["id"] as? Int ?? -1)
        }
    }

    @Test func indexesNeverShift() async throws {
        let server = try ServeProcess([])
        defer { server.kill() }
        let port = server.port
        let added = try await Self.put(port, "/landmarks/5001", Self.feature("Boathouse", lat: 52.5, lon: 13.4, extra: #","color":"red""#))
        #expect(added.status == 200)
        #expect(Self.json(added.body)["landmarkIndex"] as? Int == 12)
        #expect((Self.json(added.body)["properties"] as? [String: Any])?["color"] as? String == "red", "other properties kept")
        #expect(
            Self.json(try await Self.put(port, "/landmarks/5002", Self.feature("Pier", lat: 52.6, lon: 13.5)).body)["landmarkIndex"] as? Int
                == 13)
        // Replaced in place; deleted leaves its position empty; the others keep theirs.
        let replaced = try await Self.put(port, "/landmarks/1002", Self.feature("Silver Salmon Creek II", lat: 59.98, lon: -152.66))
        #expect(Self.json(replaced.body)["landmarkIndex"] as? Int == 1)
        #expect(try await Self.get(port, "/landmarks/5001", "DELETE").status == 200)
        #expect(try await Self.get(port, "/landmarks/5001", "DELETE").status == 404)
        #expect(try await Self.get(port, "/landmarks/5001").status == 404)
        let listed = try await Self.listed(port)
        #expect(listed.count == 13)
        #expect(!listed.contains { $0.id == 5001 } && !listed.contains { $0.index == 12 })
        #expect(listed.contains { $0.index == 13 && $0.id == 5002 })
        #expect(listed.contains { $0.index == 1 && $0.id == 1002 })
        // The id comes back to its position.
        let again = try await Self.put(port, "/landmarks/5001", Self.feature("Boathouse", lat: 52.5, lon: 13.4))
        #expect(Self.json(again.body)["landmarkIndex"] as? Int == 12)
        #expect(try await Self.get(port, "/landmarks/abc").status == 404)
        #expect(try await Self.get(port, "/landmarks", "POST").status == 405)
        let stopped = try server.stop()
        #expect(stopped.status == 0)
        #expect(stopped.stderr.contains("admin: (no --users) PUT /landmarks/5001 (index 12): applied"))
        #expect(stopped.stderr.contains("admin: (no --users) DELETE /landmarks/5001 (index 12): applied"))
    }

    @Test func validationRefusesWithReasons() async throws {
        let server = try ServeProcess([])
        defer { server.kill() }
        let port = server.port
        let cases: [(body: String, reason: String)] = [
            (Self.feature("Far", lat: 95, lon: 13.4), "latitude"),
            (Self.feature("Radius", lat: 52.5, lon: 13.4, extra: #","radius":"wide""#), "radius"),
            (Self.feature("", lat: 52.5, lon: 13.4), "has no name"),
            (
                #"{"type":"Feature","geometry":{"type":"Polygon","coordinates":[[[13.4,52.5],[13.5,52.5],[13.4,52.5]]]},"properties":{"name":"Thin"}}"#,
                "landmark 5001"
            ),
            (
                #"{"type":"Feature","properties":{"id":7,"name":"Other"},"geometry":{"type":"Point","coordinates":[1,2]}}"#,
                "not the id of its path"
            ),
            ("not json", "landmark 5001"),
            (#"{"type":"FeatureCollection","features":[]}"#, "not \"Feature\""),
        ]
        for (body, reason) in cases {
            let reply = try await Self.put(port, "/landmarks/5001", body)
            #expect(reply.status == 400, "\(body)")
            let errors = Self.json(reply.body)["errors"] as? [String] ?? []
            #expect(errors.contains { $0.contains(reason) }, "\(body): \(reply.body)")
        }
        // Nothing was applied.
        #expect(try await Self.listed(port).count == 12)
        let profile = try await Self.put(port, "/profiles/d1", #"{"favorites":"1001"}"#)
        #expect(profile.status == 400 && profile.body.contains("favorites must be an array"))
        let unknown = try await Self.put(port, "/profiles/d1", #"{"favorites":[424242]}"#)
        #expect(unknown.status == 400 && unknown.body.contains("424242"), "\(unknown.body)")
        #expect(try await Self.get(port, "/profiles/d1").status == 404)
        let stopped = try server.stop()
        #expect(stopped.stderr.contains("admin: (no --users) PUT /landmarks/5001: refused (400)"))
        #expect(stopped.stderr.contains(#"admin: (no --users) PUT /profiles (device "d1"): refused: "#))
    }

    @Test func changesApplyFromTheNextFix() async throws {
        let server = try ServeProcess(["--events", "all"])
        defer { server.kill() }
        let port = server.port
        let fix = { (lat: Double, lon: Double, minute: Int) in
            #"{"device":"alice/phone","lat":\#(lat),"lon":\#(lon),"time":"2026-05-01T12:\#(String(format: "%02d", minute)):00Z"}"#
        }
        #expect(try await Self.put(port, "/landmarks/5001", Self.feature("Boathouse", lat: 52.5, lon: 13.4)).status == 200)
        let posted = try await curl(["--data-binary", fix(52.5001, 13.4001, 0), "http://127.0.0.1:\(port)/fixes"])
        #expect(posted.status == 200)
        let lines = server.waitForLines(1)
        #expect(lines.first?.contains(#""landmarkIndex":12"#) == true, "\(lines)")
        let device = Self.json(try await Self.get(port, "/devices/alice%2Fphone").body)
        let inside = device["inside"] as? [[String: Any]] ?? []
        #expect(inside.first?["id"] as? Int == 5001 && inside.first?["since"] as? String == "2026-05-01T12:00:00Z")
        #expect((device["latestFix"] as? [String: Any])?["lat"] as? Double == 52.5001)
        let insideLandmark = Self.json(try await Self.get(port, "/landmarks/5001/inside").body)
        #expect((insideLandmark["devices"] as? [[String: Any]])?.first?["device"] as? String == "alice/phone")
        #expect(try await Self.get(port, "/devices/nobody").status == 404)
        let metrics = try await Self.get(port, "/metrics").body
        for sample in ["landmark_near_catalog_landmarks 13", "landmark_near_admin_changes_total 1", "landmark_near_devices_inside 1"] {
            #expect(metrics.contains(sample + "\n"), "\(sample)")
        }
        // Deleted: forgotten by the device inside, without an exit event.
        #expect(try await Self.get(port, "/landmarks/5001", "DELETE").status == 200)
        #expect((Self.json(try await Self.get(port, "/devices/alice%2Fphone").body)["inside"] as? [Any])?.isEmpty == true)
        #expect(try await curl(["--data-binary", fix(40, 0, 1), "http://127.0.0.1:\(port)/fixes"]).status == 200)
        // Favourite no more (a profile without it): forgotten too.
        #expect(try await Self.put(port, "/landmarks/5002", Self.feature("Pier", lat: 40, lon: 0)).status == 200)
        #expect(try await curl(["--data-binary", fix(40.0001, 0, 2), "http://127.0.0.1:\(port)/fixes"]).status == 200)
        #expect(try await Self.put(port, "/profiles/alice%2Fphone", #"{"favorites":[1001]}"#).status == 200)
        #expect((Self.json(try await Self.get(port, "/devices/alice%2Fphone").body)["inside"] as? [Any])?.isEmpty == true)
        // No longer a favourite of anyone (isFavorite turned off): bob, inside it, forgets it.
        let bob = #"{"device":"bob","lat":40.0001,"lon":0,"time":"2026-05-01T12:02:30Z"}"#
        #expect(try await curl(["--data-binary", bob, "http://127.0.0.1:\(port)/fixes"]).status == 200)
        #expect(try await Self.get(port, "/devices/bob").body.contains(#""id":5002"#))
        #expect(try await Self.put(port, "/landmarks/5002", Self.feature("Pier", lat: 40, lon: 0, favorite: false)).status == 200)
        #expect((Self.json(try await Self.get(port, "/devices/bob").body)["inside"] as? [Any])?.isEmpty == true)
        #expect(try await curl(["--data-binary", fix(45, 0, 3), "http://127.0.0.1:\(port)/fixes"]).status == 200)
        let stopped = try server.stop()
        let events = stopped.stdout.split(separator: "\n")
        #expect(events.count == 3, "\(events)")
        #expect(!stopped.stdout.contains(#""event":"exit""#))
    }

    @Test func profilesByPercentEncodedName() async throws {
        let server = try ServeProcess([])
        defer { server.kill() }
        let port = server.port
        let put = try await Self.put(port, "/profiles/alice%2Fphone", #"{"favorites":[1002],"prefersNotifications":false,"favourites":[]}"#)
        #expect(put.status == 200)
        #expect(put.body.contains(#""device":"alice/phone""#) && put.body.contains("did you mean"))
        let got = Self.json(try await Self.get(port, "/profiles/alice%2Fphone").body)
        #expect((got["profile"] as? [String: Any])?["favorites"] as? [Int] == [1002])
        #expect(try await Self.get(port, "/profiles/alice").status == 404)
        #expect(try await Self.get(port, "/profiles/alice%2Fphone", "DELETE").status == 200)
        #expect(try await Self.get(port, "/profiles/alice%2Fphone").status == 404)
        #expect(try await Self.get(port, "/profiles/alice%2Fphone", "DELETE").status == 404)
    }

    @Test func adminsOnlyWithUsers() async throws {
        let directory = try makeTemporaryDirectory("serve-admin")
        defer { try? FileManager.default.removeItem(at: directory) }
        let carol = try await runTool(["hash-password"], stdin: "carol-secret\n")
        let hash = carol.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let users = try await ServeAuthTests.usersFile(in: directory, extra: #", "carol": {"password": "\#(hash)", "admin": true}"#)
        let server = try ServeProcess(["--users", users.path])
        defer { server.kill() }
        let port = server.port
        let body = Self.feature("Boathouse", lat: 52.5, lon: 13.4)
        #expect(try await Self.put(port, "/landmarks/5001", body).status == 401)
        #expect(try await Self.put(port, "/landmarks/5001", body, ["-u", "carol:wrong"]).status == 401)
        let alice = try await Self.put(port, "/landmarks/5001", body, ["-u", "alice:alice-secret"])
        #expect(alice.status == 403 && alice.body.contains("not an admin"))
        #expect(try await Self.get(port, "/landmarks", "GET", ["-u", "alice:alice-secret"]).status == 403)
        #expect(try await Self.get(port, "/devices/alice%2Fphone", "GET", ["-u", "alice:alice-secret"]).status == 403)
        #expect(try await Self.put(port, "/landmarks/5001", body, ["-u", "carol:carol-secret"]).status == 200)
        #expect(try await Self.get(port, "/landmarks", "GET", ["-u", "carol:carol-secret"]).status == 200)
        let stopped = try server.stop()
        #expect(stopped.stderr.contains(#"admin: user "carol" PUT /landmarks/5001 (index 12): applied"#))
        #expect(!stopped.stderr.contains("carol-secret"))
    }

}
