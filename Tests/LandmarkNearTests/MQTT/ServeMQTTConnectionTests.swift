import Foundation
import Testing

/// `serve --mqtt`'s connection: TLS with a test CA (`mqtts://`, `--mqtt-ca`), a user and a
/// password from a file (never printed), a broker that is not there at first (/healthz says
/// so, the connection comes when it does), and the options' usage errors.
@Suite("serve: --mqtt connections", .suiteTimeLimit)
struct ServeMQTTConnectionTests {
    static let fix = #"{"_type":"location","tid":"ph","lat":34.0113,"lon":-116.1669,"tst":1777636800,"acc":10}"#

    @Test func tlsWithATestCA() async throws {
        let directory = try makeTemporaryDirectory("serve-mqtt-tls")
        defer { try? FileManager.default.removeItem(at: directory) }
        let files = try await makeTestCertificates(in: directory)
        let broker = try MosquittoBroker(directory: directory, tls: files)
        defer { broker.kill() }
        let url = "mqtts://127.0.0.1:\(broker.port)/owntracks/+/+"
        let server = try ServeProcess(["--mqtt", url, "--mqtt-ca", files.ca], ready: "mqtt: subscribed")
        defer { server.kill() }
        try await mosquittoPublish(port: broker.port, topic: "owntracks/alice/phone", message: Self.fix, extra: ["--cafile", files.ca])
        #expect(server.waitForLines(1).count == 1, "\(server.stderr)")
        _ = try server.stop()

        // The system's CAs do not know the test CA: the handshake fails, and says why.
        let untrusting = try ServeProcess(["--mqtt", url], ready: "mqtt: cannot connect")
        defer { untrusting.kill() }
        #expect(untrusting.stderr.contains("TLS"), "\(untrusting.stderr)")
        let health = try HTTPConnection(port: untrusting.port).request("GET", "/healthz")
        #expect(health.status == 503)
        #expect(health.body.contains("the MQTT broker is unreachable"), "\(health.body)")
        let stopped = try untrusting.stop()
        #expect(stopped.status == 0, "status \(stopped.status): \(stopped.stderr)")
    }

    @Test func userAndPasswordFile() async throws {
        let directory = try makeTemporaryDirectory("serve-mqtt-auth")
        defer { try? FileManager.default.removeItem(at: directory) }
        let passwords = directory.appendingPathComponent("passwords").path
        let made = try await runProcess("/usr/bin/mosquitto_passwd", ["-c", "-b", passwords, "alice", "s3cret-Pa55"], timeout: 20)
        #expect(made.status == 0, "\(made.stderr)")
        let broker = try MosquittoBroker(directory: directory, passwordFile: passwords)
        defer { broker.kill() }
        let secret = directory.appendingPathComponent("secret")
        try "s3cret-Pa55\n".write(to: secret, atomically: true, encoding: .utf8)
        let url = "mqtt://alice@127.0.0.1:\(broker.port)"
        let server = try ServeProcess(["--mqtt", url, "--mqtt-password-file", secret.path], ready: "mqtt: subscribed")
        defer { server.kill() }
        try await mosquittoPublish(
            port: broker.port, topic: "owntracks/alice/phone", message: Self.fix, extra: ["-u", "alice", "-P", "s3cret-Pa55"])
        #expect(server.waitForLines(1).count == 1, "\(server.stderr)")
        let result = try server.stop()
        #expect(!result.stderr.contains("s3cret"), "the password was printed: \(result.stderr)")

        // A wrong password (here in the URL): refused, said once, unhealthy; never printed.
        let refused = try ServeProcess(["--mqtt", "mqtt://alice:wrong-Pa55@127.0.0.1:\(broker.port)"], ready: "refused the connection")
        defer { refused.kill() }
        #expect(try HTTPConnection(port: refused.port).request("GET", "/healthz").status == 503)
        let stopped = try refused.stop()
        #expect(!stopped.stderr.contains("wrong-Pa55"), "\(stopped.stderr)")
        #expect(stopped.stderr.contains("mqtt://alice@127.0.0.1:\(broker.port)/owntracks/+/+"))
    }

    @Test func aBrokerThatComesLater() async throws {
        let directory = try makeTemporaryDirectory("serve-mqtt-later")
        defer { try? FileManager.default.removeItem(at: directory) }
        let broker = try MosquittoBroker(directory: directory)
        defer { broker.kill() }
        broker.stop()
        let server = try ServeProcess(["--mqtt", broker.url, "--state", directory.appendingPathComponent("s.db").path])
        defer { server.kill() }
        #expect(eventually { server.stderr.contains("mqtt: cannot connect to 127.0.0.1:\(broker.port): Connection refused") })
        let down = try HTTPConnection(port: server.port).request("GET", "/healthz")
        #expect(down.status == 503)
        #expect(down.body == "mqtt: the MQTT broker is unreachable: Connection refused\n", "\(down.body)")
        #expect(metric("landmark_near_mqtt_connected", port: server.port) == 0)
        try broker.start()
        #expect(eventually { server.stderr.contains("mqtt: subscribed") }, "\(server.stderr)")
        #expect(try HTTPConnection(port: server.port).request("GET", "/healthz").status == 200)
        try await mosquittoPublish(port: broker.port, topic: "owntracks/alice/phone", message: Self.fix)
        #expect(server.waitForLines(1).count == 1)
        let result = try server.stop()
        // One line for the refusals, however many attempts.
        #expect(result.stderr.components(separatedBy: "mqtt: cannot connect").count == 2, "\(result.stderr)")
    }

    @Test(arguments: [
        (["serve"], "--listen HOST:PORT, --mqtt URL or --nats URL is required"),
        (["serve", "--mqtt", "http://127.0.0.1"], "is not an MQTT URL"),
        (["serve", "--mqtt", "mqtt://127.0.0.1:99999"], "bad port"),
        (["serve", "--mqtt", "mqtt://127.0.0.1/owntracks/#/x"], "'#' must be the whole last level"),
        (["serve", "--mqtt", "mqtt://127.0.0.1", "--mqtt-ca", "ca.pem"], "goes with an mqtts:// URL"),
        (["serve", "--mqtt", "mqtt://127.0.0.1", "--mqtt-publish", "a/+/b"], "may not"),
        (["serve", "--mqtt", "mqtt://127.0.0.1", "--mqtt-publish", "a/{user}"], "the only placeholder is {device}"),
        (["serve", "--mqtt", "mqtt://u:p@127.0.0.1", "--mqtt-password-file", "/dev/null"], "one place only"),
        (["serve", "--mqtt-publish", "a/{device}", "--listen", "127.0.0.1:0"], "goes with --mqtt URL"),
        (["serve", "--mqtt", "mqtt://127.0.0.1", "--users", "u.json"], "--users is about HTTP: it needs --listen"),
    ])
    func usageErrors(arguments: [String], message: String) async throws {
        let result = try await runTool(arguments)
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(!result.stderr.contains(":p@"), "a password was printed")
    }

    @Test func aMissingCAFileIsMissingInput() async throws {
        let result = try await runTool(["serve", "--mqtt", "mqtts://127.0.0.1", "--mqtt-ca", "/no/such/ca.pem"])
        #expect(result.status == 66, "\(result.stderr)")
        #expect(result.stderr.contains("--mqtt-ca /no/such/ca.pem: no such file"), "\(result.stderr)")
    }
}

/// A test CA and a certificate for 127.0.0.1 signed by it, made with the openssl CLI.
func makeTestCertificates(in directory: URL) async throws -> MosquittoBroker.TLSFiles {
    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }
    let steps: [[String]] = [
        [
            "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", path("ca.key"), "-out",
            path("ca.pem"),
            "-days", "2", "-subj", "/CN=LandmarkNear test CA",
        ],
        [
            "req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", path("server.key"), "-out",
            path("server.csr"),
            "-subj", "/CN=127.0.0.1",
        ],
        [
            "x509", "-req", "-in", path("server.csr"), "-CA", path("ca.pem"), "-CAkey", path("ca.key"), "-CAcreateserial",
            "-out", path("server.pem"), "-days", "2", "-extfile", path("san.cnf"),
        ],
    ]
    try "subjectAltName=IP:127.0.0.1\n".write(toFile: path("san.cnf"), atomically: true, encoding: .utf8)
    for step in steps {
        let result = try await runProcess("/usr/bin/openssl", step, timeout: 30)
        guard result.status == 0 else { throw CounterpartError("openssl \(step[0]): \(result.stderr)") }
    }
    return MosquittoBroker.TLSFiles(ca: path("ca.pem"), certificate: path("server.pem"), key: path("server.key"))
}
