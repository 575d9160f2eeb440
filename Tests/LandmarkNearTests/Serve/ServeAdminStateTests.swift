import Foundation
import Testing

/// `serve --state` with the admin endpoints: changes survive SIGTERM and `kill -9` restarts
/// (applied over the files by id and device), `landmark-near devices` agrees with `GET
/// /devices/DEVICE`, and a load of fixes and changes together leaves no fix half-applied.
@Suite("serve: admin changes and --state", .suiteTimeLimit)
struct ServeAdminStateTests {
    typealias Admin = ServeAdminTests

    @Test(arguments: [SIGTERM, SIGKILL])
    func changesSurviveRestarts(signal: Int32) async throws {
        let directory = try makeTemporaryDirectory("serve-admin-state")
        defer { try? FileManager.default.removeItem(at: directory) }
        let state = directory.appendingPathComponent("s.db").path
        let first = try ServeProcess(["--state", state])
        defer { first.kill() }
        var port = first.port
        #expect(try await Admin.put(port, "/landmarks/5001", Admin.feature("Boathouse", lat: 52.5, lon: 13.4)).status == 200)
        #expect(try await Admin.put(port, "/landmarks/5002", Admin.feature("Pier", lat: 40, lon: 0)).status == 200)
        #expect(try await Admin.get(port, "/landmarks/5001", "DELETE").status == 200)
        #expect(try await Admin.get(port, "/landmarks/1003", "DELETE").status == 200)
        #expect(try await Admin.put(port, "/profiles/alice%2Fphone", #"{"favorites":[5002]}"#).status == 200)
        let fix = #"{"device":"alice/phone","lat":40.0001,"lon":0,"time":"2026-05-01T12:00:00Z"}"#
        #expect(try await curl(["--data-binary", fix, "http://127.0.0.1:\(port)/fixes"]).status == 200)
        let before = try await Admin.get(port, "/devices/alice%2Fphone").body
        #expect(before.contains(#""index":13,"id":5002,"name":"Pier","since":"2026-05-01T12:00:00Z""#), "\(before)")
        let listedBefore = try await Admin.listed(port).map { "\($0.index):\($0.id)" }
        // Readable while the service runs, and the same as the API.
        let live = try await runTool(["devices", "--state", state, "--json"])
        #expect(live.status == 0)
        #expect(live.stdout.trimmingCharacters(in: .newlines) == before.trimmingCharacters(in: .newlines))
        _ = try first.stop(signal: signal)

        let second = try ServeProcess(["--state", state])
        defer { second.kill() }
        port = second.port
        #expect(try await Admin.listed(port).map { "\($0.index):\($0.id)" } == listedBefore)
        #expect(try await Admin.get(port, "/landmarks/5001").status == 404)
        #expect(try await Admin.get(port, "/landmarks/1003").status == 404)
        let profile = try await Admin.get(port, "/profiles/alice%2Fphone")
        #expect(profile.status == 200 && profile.body.contains(#""favorites":[5002]"#))
        #expect(try await Admin.get(port, "/devices/alice%2Fphone").body == before)
        // Still inside: no second notification for the next fix inside.
        let next = #"{"device":"alice/phone","lat":40.0002,"lon":0,"time":"2026-05-01T12:01:00Z"}"#
        #expect(try await curl(["--data-binary", next, "http://127.0.0.1:\(port)/fixes"]).status == 200)
        let stopped = try second.stop()
        #expect(stopped.stdout.isEmpty, "\(stopped.stdout)")
        let check = try await runTool(["state", "check", state])
        #expect(check.status == 0 && check.stdout.contains("schema 4"), "\(check.stdout)")
        // watch --state applies the kept changes too: 5002 is a favourite at index 13.
        let replay = try await runTool(
            ["watch", "--state", state], stdin: #"{"device":"w","lat":40,"lon":0,"time":"2026-05-01T13:00:00Z"}"# + "\n")
        #expect(replay.stdout.contains(#""landmark":{"index":13,"id":5002,"name":"Pier"}"#), "\(replay.stdout)")
    }

    @Test func sighupKeepsTheChangesOverTheFiles() async throws {
        let directory = try makeTemporaryDirectory("serve-admin-sighup")
        defer { try? FileManager.default.removeItem(at: directory) }
        let catalog = directory.appendingPathComponent("places.json")
        let write = { (first: String) in
            try
                #"[{"id":1,"name":"\#(first)","coordinates":{"latitude":10,"longitude":10},"isFavorite":true},{"id":2,"name":"Two","coordinates":{"latitude":20,"longitude":20}}]"#
                .write(to: catalog, atomically: true, encoding: .utf8)
        }
        try write("One")
        let server = try ServeProcess(["--landmarks", catalog.path])
        defer { server.kill() }
        let port = server.port
        #expect(try await Admin.put(port, "/landmarks/5001", Admin.feature("Added", lat: 30, lon: 30)).status == 200)
        #expect(try await Admin.put(port, "/landmarks/2", Admin.feature("Two (edited)", lat: 20, lon: 20)).status == 200)
        try write("One (renamed in the file)")
        server.signal(SIGHUP)
        var names: [String] = []
        for _ in 0..<100 {
            let body = try await Admin.get(port, "/landmarks").body
            let features = Admin.json(body)["features"] as? [[String: Any]] ?? []
            names = features.map {
                "\($0["landmarkIndex"] as? Int ?? -1):\(($0["properties"] as? [String: Any])?["name"] as? String ?? "")"
            }
            if names.first?.contains("renamed") == true { break }
            usleep(50_000)
        }
        #expect(names == ["0:One (renamed in the file)", "1:Two (edited)", "2:Added"])
        _ = try server.stop()
    }

    @Test func fixesAndChangesTogether() async throws {
        let directory = try makeTemporaryDirectory("serve-admin-load")
        defer { try? FileManager.default.removeItem(at: directory) }
        let state = directory.appendingPathComponent("s.db").path
        let server = try ServeProcess(["--state", state, "--favorites", "all"])
        defer { server.kill() }
        let port = server.port
        // 20 devices walk past Turtle Rock while an admin adds, replaces and deletes landmarks there.
        let batches = (0..<40).map { step in
            (0..<20).map { device in
                let lat = 34.011286 + (step % 2 == 0 ? 0 : 0.5)
                return #"{"device":"d\#(device)","lat":\#(lat),"lon":-116.166868,"time":\#(1_777_636_800 + step * 60)}"#
            }
            .joined(separator: "\n")
        }
        let posted = try await withThrowingTaskGroup(of: Int.self) { group in
            group.addTask {
                var ok = 0
                for batch in batches {
                    let connection = try HTTPConnection(port: port)
                    if try connection.request("POST", "/fixes", body: Array((batch + "\n").utf8)).status == 200 { ok += 1 }
                }
                return ok
            }
            group.addTask {
                var ok = 0
                for round in 0..<30 {
                    let id = 7000 + round % 3
                    let reply =
                        round % 4 == 3
                        ? try await Admin.get(port, "/landmarks/\(id)", "DELETE")
                        : try await Admin.put(port, "/landmarks/\(id)", Admin.feature("Spot \(round)", lat: 34.0113, lon: -116.1669))
                    if reply.status == 200 || reply.status == 404 { ok += 1 }
                }
                return ok
            }
            return try await group.reduce(0, +)
        }
        #expect(posted == 70)
        let metrics = try await Admin.get(port, "/metrics").body
        #expect(metrics.contains("landmark_near_fixes_total{result=\"used\"} 800"), "every fix processed once")
        let stopped = try server.stop()
        #expect(stopped.status == 0)
        // Every notification names a landmark that was in force: its index is one the catalog had.
        for line in stopped.stdout.split(separator: "\n") {
            let event = Admin.json(String(line))
            let landmark = event["landmark"] as? [String: Any] ?? [:]
            let index = landmark["index"] as? Int ?? -1
            #expect(index == 0 || (12...14).contains(index), "\(line)")
        }
        #expect(try await runTool(["state", "check", state]).status == 0)
    }
}
