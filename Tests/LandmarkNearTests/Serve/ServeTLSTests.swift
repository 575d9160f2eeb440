import Foundation
import Testing

/// `serve --tls-cert FILE --tls-key FILE` (issue 43): TLS 1.2 and 1.3 end to end with curl and a
/// test CA made here with the openssl command; the certificate read again on SIGHUP in the
/// running daemon; and `/metrics` behind the users' credentials unless `--metrics-public`.
@Suite("serve: TLS and metrics", .suiteTimeLimit)
struct ServeTLSTests {
    /// A CA and server certificates signed by it, made with `openssl` in a directory of their own.
    struct TestCA {
        let directory: URL
        var ca: String { directory.appendingPathComponent("ca.pem").path }

        init() async throws {
            directory = try makeTemporaryDirectory("serve-tls")
            try await openssl(
                "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", "ca.key",
                "-out", "ca.pem", "-days", "2", "-subj", "/CN=LandmarkNear test CA")
            try Data("subjectAltName=DNS:localhost,IP:127.0.0.1\n".utf8).write(to: directory.appendingPathComponent("san.cnf"))
        }

        /// A key and a certificate for 127.0.0.1 named `name` (its subject's CN): `name.pem`, `name.key`.
        @discardableResult
        func issue(_ name: String) async throws -> (certificate: String, key: String) {
            try await openssl(
                "req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", "\(name).key", "-out", "\(name).csr",
                "-subj", "/CN=\(name)")
            try await openssl(
                "x509", "-req", "-in", "\(name).csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial", "-out", "\(name).pem",
                "-days", "2", "-extfile", "san.cnf")
            _ = chmod(directory.appendingPathComponent("\(name).key").path, 0o600)
            return (directory.appendingPathComponent("\(name).pem").path, directory.appendingPathComponent("\(name).key").path)
        }

        func openssl(_ arguments: String...) async throws {
            let result = try await runProcess("/usr/bin/openssl", arguments, currentDirectory: directory, timeout: 30)
            #expect(result.status == 0, "openssl \(arguments.joined(separator: " ")): \(result.stderr)")
        }

        func remove() { try? FileManager.default.removeItem(at: directory) }
    }

    /// curl over TLS trusting the test CA only: the status, the body, and the subject of the
    /// certificate the server presented.
    static func secureCurl(_ ca: TestCA, _ url: String, _ more: [String] = []) async throws -> (status: Int, body: String, subject: String?)
    {
        let result = try await runProcess(
            "/usr/bin/curl",
            ["--silent", "--show-error", "--verbose", "--max-time", "20", "--cacert", ca.ca, "--write-out", "\n%{http_code}"] + more + [
                url
            ],
            timeout: 30)
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        let subject = result.stderr.split(separator: "\n").first { $0.contains("subject: ") }.map {
            String($0.split(separator: "subject: ").last ?? "")
        }
        return (Int(lines.last ?? "") ?? -1, lines.dropLast().joined(separator: "\n"), subject)
    }

    @Test func tlsOnLoopbackEndToEnd() async throws {
        let ca = try await TestCA()
        defer { ca.remove() }
        let (certificate, key) = try await ca.issue("localhost")
        let server = try ServeProcess(["--tls-cert", certificate, "--tls-key", key, "--favorites", "all"])
        defer { server.kill() }
        #expect(server.stderr.contains("listening on https://127.0.0.1:\(server.port)"))
        let base = "https://127.0.0.1:\(server.port)"
        let health = try await Self.secureCurl(ca, base + "/healthz")
        #expect(health.status == 200 && health.body.hasPrefix("ok"), "\(health)")
        #expect(health.subject == "CN=localhost")
        let posted = try await Self.secureCurl(
            ca, base + "/fixes", ["--data-binary", #"{"device":"d1","lat":34.0113,"lon":-116.1669}"#])
        #expect(posted.status == 200, "\(posted)")
        #expect(server.waitForLines(1).count == 1)
        // TLS 1.2 works; 1.1 and plain HTTP do not.
        #expect(try await Self.secureCurl(ca, base + "/healthz", ["--tls-max", "1.2"]).status == 200)
        #expect(try await Self.secureCurl(ca, base + "/healthz", ["--tls-max", "1.1"]).status != 200)
        #expect(try await curl(["http://127.0.0.1:\(server.port)/healthz"]).status != 200)
        // A client that does not trust the CA refuses the server.
        let untrusted = try await runProcess("/usr/bin/curl", ["--silent", "--max-time", "10", base + "/healthz"], timeout: 20)
        #expect(untrusted.status == 60)
        #expect(try server.stop().status == 0)
    }

    @Test func sighupPresentsARenewedCertificate() async throws {
        let ca = try await TestCA()
        defer { ca.remove() }
        let (certificate, key) = try await ca.issue("first")
        let server = try ServeProcess(["--tls-cert", certificate, "--tls-key", key])
        defer { server.kill() }
        let url = "https://127.0.0.1:\(server.port)/healthz"
        #expect(try await Self.secureCurl(ca, url).subject == "CN=first")
        // A renewal: a new key and certificate over the old files.
        let (renewedCertificate, renewedKey) = try await ca.issue("renewed")
        try FileManager.default.removeItem(atPath: certificate)
        try FileManager.default.removeItem(atPath: key)
        try FileManager.default.copyItem(atPath: renewedCertificate, toPath: certificate)
        try FileManager.default.copyItem(atPath: renewedKey, toPath: key)
        server.signal(SIGHUP)
        #expect(waitFor { server.stderr.contains("SIGHUP: certificate reloaded from \(certificate)") })
        let renewed = try await Self.secureCurl(ca, url)
        #expect(renewed.status == 200 && renewed.subject == "CN=renewed", "\(renewed)")
        // A certificate that does not go with the key is refused, and the renewed one stays.
        try FileManager.default.removeItem(atPath: certificate)
        try FileManager.default.copyItem(atPath: ca.ca, toPath: certificate)
        server.signal(SIGHUP)
        #expect(waitFor { server.stderr.contains("SIGHUP: keeping the certificate: --tls-cert \(certificate)") })
        #expect(try await Self.secureCurl(ca, url).subject == "CN=renewed")
        #expect(try server.stop().status == 0)
    }

    @Test func badTLSOptions() async throws {
        let ca = try await TestCA()
        defer { ca.remove() }
        let (certificate, key) = try await ca.issue("localhost")
        let other = try await ca.issue("other")
        let garbage = ca.directory.appendingPathComponent("garbage.pem")
        try Data("-----BEGIN CERTIFICATE-----\nnot base64\n-----END CERTIFICATE-----\n".utf8).write(to: garbage)
        let cases: [([String], Int32, String)] = [
            (["--tls-cert", certificate], 64, "--tls-cert needs --tls-key"),
            (["--tls-key", key], 64, "--tls-key needs --tls-cert"),
            (["--tls-cert", ca.directory.appendingPathComponent("none.pem").path, "--tls-key", key], 66, "none.pem: no such file"),
            (["--tls-cert", garbage.path, "--tls-key", key], 65, "--tls-cert \(garbage.path)"),
            (["--tls-cert", certificate, "--tls-key", other.key], 65, "do not match"),
        ]
        for (arguments, status, message) in cases {
            let result = try await runTool(["serve", "--listen", "127.0.0.1:0"] + arguments, timeout: 20)
            #expect(result.status == status, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
        }
        // A key others may read is used, with a warning.
        _ = chmod(key, 0o644)
        let server = try ServeProcess(["--tls-cert", certificate, "--tls-key", key])
        defer { server.kill() }
        #expect(server.stderr.contains("warning: --tls-key \(key) is readable by group or others (mode 644)"))
        #expect(try server.stop().status == 0)
    }

    @Test func metricsNeedCredentialsWithUsers() async throws {
        let directory = try makeTemporaryDirectory("serve-metrics")
        defer { try? FileManager.default.removeItem(at: directory) }
        let users = try await ServeAuthTests.usersFile(in: directory)
        let server = try ServeProcess(["--users", users.path])
        defer { server.kill() }
        let connection = try HTTPConnection(port: server.port)
        let anonymous = try connection.request("GET", "/metrics")
        #expect(anonymous.status == 401)
        #expect(anonymous.headers["www-authenticate"]?.hasPrefix("Basic realm=") == true)
        #expect(!anonymous.body.contains("landmark_near_"))
        let wrong = try connection.request("GET", "/metrics", headers: [("Authorization", ServeAuthTests.basic("alice", "nope"))])
        #expect(wrong.status == 401)
        let alice = try connection.request("GET", "/metrics", headers: [("Authorization", ServeAuthTests.basic("alice", "alice-secret"))])
        #expect(alice.status == 200 && alice.body.contains("landmark_near_records_total"))
        #expect(try connection.request("GET", "/healthz").status == 200)
        #expect(try server.stop().status == 0)

        let open = try ServeProcess(["--users", users.path, "--metrics-public"])
        defer { open.kill() }
        #expect(try HTTPConnection(port: open.port).request("GET", "/metrics").status == 200)
        #expect(try open.stop().status == 0)
        // Without users there is nobody to ask: /metrics is open on loopback as before.
        let local = try ServeProcess([])
        defer { local.kill() }
        #expect(try HTTPConnection(port: local.port).request("GET", "/metrics").status == 200)
        #expect(try local.stop().status == 0)
    }
}

/// Polls `condition` every 20 ms for at most `timeout` seconds.
private func waitFor(_ timeout: Double = 10, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if condition() { return true }
        usleep(20_000)
    }
    return condition()
}
