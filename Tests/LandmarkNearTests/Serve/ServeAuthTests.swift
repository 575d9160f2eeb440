import Foundation
import Testing

/// `serve --users FILE`: basic auth against crypt(3) hashes made by `hash-password`, 401 and
/// 403, devices named USER/DEVICE, loopback only without users.
@Suite("serve: users and authentication", .suiteTimeLimit)
struct ServeAuthTests {
    /// A users file with alice (device "phone") and bob (any device), hashed by the tool.
    static func usersFile(in directory: URL, extra: String = "") async throws -> URL {
        let alice = try await runTool(["hash-password"], stdin: "alice-secret\n")
        let bob = try await runTool(["hash-password"], stdin: "bob: colon & ünïcode")
        #expect(alice.status == 0 && bob.status == 0)
        let aliceHash = alice.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let bobHash = bob.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(aliceHash.hasPrefix("$y$"))
        let file = directory.appendingPathComponent("users.json")
        let json =
            #"{"alice": {"password": "\#(aliceHash)", "devices": ["phone"]}, "bob": {"password": "\#(bobHash)", "devices": "*"}\#(extra)}"#
        try json.write(to: file, atomically: true, encoding: .utf8)
        return file
    }

    static func basic(_ user: String, _ password: String) -> String {
        "Basic " + Data("\(user):\(password)".utf8).base64EncodedString()
    }

    @Test func hashPasswordMakesSaltedYescryptHashes() async throws {
        let first = try await runTool(["hash-password"], stdin: "same\n")
        let second = try await runTool(["hash-password"], stdin: "same")
        #expect(first.status == 0 && first.stdout.hasPrefix("$y$"))
        #expect(first.stdout != second.stdout, "a fresh salt each time")
        #expect(!first.stdout.contains("same") && !first.stderr.contains("same"))
        #expect(try await runTool(["hash-password"], stdin: "").status == 65)
        #expect(try await runTool(["hash-password", "--help"]).stdout.contains("yescrypt"))
    }

    @Test func statusesByCredentials() async throws {
        let directory = try makeTemporaryDirectory("serve-auth")
        defer { try? FileManager.default.removeItem(at: directory) }
        let users = try await Self.usersFile(in: directory)
        let server = try ServeProcess(["--users", users.path])
        defer { server.kill() }
        let target = "/osmand?id=phone&lat=34.0113&lon=-116.1669"
        let connection = try HTTPConnection(port: server.port)

        let none = try connection.request("GET", target)
        #expect(none.status == 401)
        #expect(none.headers["www-authenticate"]?.hasPrefix("Basic realm=\"landmark-near\"") == true)
        #expect(try connection.request("GET", target, headers: [("Authorization", Self.basic("alice", "wrong"))]).status == 401)
        #expect(try connection.request("GET", target, headers: [("Authorization", Self.basic("mallory", "alice-secret"))]).status == 401)
        #expect(try connection.request("GET", target, headers: [("Authorization", "Basic !!!not-base64")]).status == 401)
        #expect(try connection.request("GET", target, headers: [("Authorization", "Bearer abc")]).status == 401)
        // alice does not own "tablet"; bob owns every device.
        let foreign = try connection.request(
            "GET", "/osmand?id=tablet&lat=34.0113&lon=-116.1669",
            headers: [("Authorization", Self.basic("alice", "alice-secret"))])
        #expect(foreign.status == 403)
        let good = try connection.request("GET", target, headers: [("Authorization", Self.basic("alice", "alice-secret"))])
        #expect(good.status == 200)
        // The second time is served from the verified-password memory; still checked.
        #expect(try connection.request("GET", target, headers: [("Authorization", Self.basic("alice", "alice-secret"))]).status == 200)
        #expect(try connection.request("GET", target, headers: [("Authorization", Self.basic("alice", "alice-secreT"))]).status == 401)
        let bob = try connection.request(
            "POST", "/fixes", headers: [("Authorization", Self.basic("bob", "bob: colon & ünïcode"))],
            body: Array("{\"device\":\"anything\",\"lat\":48.69423,\"lon\":-113.536248}\n".utf8))
        #expect(bob.status == 200)
        // OwnTracks: X-Limit-U must be the authenticated user; X-Limit-D must be owned.
        let owntracks = Array(#"{"_type":"location","tid":"ph","lat":59.560551,"lon":-135.334571,"tst":1777636802}"#.utf8)
        #expect(
            try connection.request(
                "POST", "/owntracks",
                headers: [("Authorization", Self.basic("alice", "alice-secret")), ("X-Limit-U", "bob"), ("X-Limit-D", "phone")],
                body: owntracks
            ).status == 403)
        #expect(
            try connection.request(
                "POST", "/owntracks",
                headers: [("Authorization", Self.basic("alice", "alice-secret")), ("X-Limit-U", "alice"), ("X-Limit-D", "laptop")],
                body: owntracks
            ).status == 403)
        let posted = try connection.request(
            "POST", "/owntracks",
            headers: [("Authorization", Self.basic("alice", "alice-secret")), ("X-Limit-U", "alice"), ("X-Limit-D", "phone")],
            body: owntracks)
        #expect(posted.status == 200 && posted.body == "[]")
        // /fixes with one device of another user refuses the whole body.
        #expect(
            try connection.request(
                "POST", "/fixes", headers: [("Authorization", Self.basic("alice", "alice-secret"))],
                body: Array("{\"device\":\"phone\",\"lat\":1,\"lon\":1}\n{\"device\":\"x\",\"lat\":1,\"lon\":1}\n".utf8)
            ).status == 403)
        // Health needs no credentials (metrics do: ServeTLSTests).
        #expect(try connection.request("GET", "/healthz").status == 200)

        let lines = server.waitForLines(3)
        #expect(lines.count == 3)
        #expect(lines.contains { $0.contains(#""device":"alice/phone""#) && $0.contains("Turtle Rock") })
        #expect(lines.contains { $0.contains(#""device":"bob/anything""#) })
        #expect(lines.contains { $0.contains(#""device":"alice/phone""#) && $0.contains("Chilkoot Trail") })
        let result = try server.stop()
        #expect(result.status == 0)
        #expect(!result.stderr.contains("alice-secret") && !result.stdout.contains("alice-secret"))
    }

    @Test func curlWithUserOption() async throws {
        let directory = try makeTemporaryDirectory("serve-auth")
        defer { try? FileManager.default.removeItem(at: directory) }
        let users = try await Self.usersFile(in: directory)
        let server = try ServeProcess(["--users", users.path])
        defer { server.kill() }
        let url = "http://127.0.0.1:\(server.port)/osmand?id=phone&lat=34.0113&lon=-116.1669"
        #expect(try await curl(["--user", "alice:alice-secret", url]).status == 200)
        #expect(try await curl(["--user", "alice:nope", url]).status == 401)
        #expect(try await curl([url]).status == 401)
        _ = try server.stop()
    }

    @Test(arguments: [("0.0.0.0:0", Int32(64)), ("[::]:0", Int32(64)), ("localhost:0x", Int32(64)), ("nohost", Int32(64))])
    func withoutUsersOnlyLoopback(listen: String, status: Int32) async throws {
        let result = try await runTool(["serve", "--listen", listen])
        #expect(result.status == status)
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
    }

    @Test func badUsersFiles() async throws {
        let directory = try makeTemporaryDirectory("serve-auth")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("users.json")
        for (json, status) in [
            (#"{"alice": {"password": "plain", "devices": "*"}}"#, Int32(65)),
            (#"{"alice": {"password": "$y$x", "devices": 3}}"#, 65),
            (#"[1]"#, 65), ("{", 65),
        ] {
            try json.write(to: file, atomically: true, encoding: .utf8)
            let result = try await runTool(["serve", "--listen", "127.0.0.1:0", "--users", file.path])
            #expect(result.status == status, "\(json): \(result.stderr)")
        }
        #expect(
            try await runTool(["serve", "--listen", "127.0.0.1:0", "--users", directory.appendingPathComponent("none.json").path]).status
                == 66)
    }
}
