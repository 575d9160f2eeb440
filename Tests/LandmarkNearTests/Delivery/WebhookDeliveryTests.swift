import Foundation
import Testing

/// `watch --webhook URL` against a local HTTP server (Tests/Counterparts/fake_webhook.py).
@Suite(.suiteTimeLimit)
struct WebhookDeliveryTests {
    @Test func eachEventLineIsPostedAndRetriedUntilAccepted() async throws {
        let webhook = try FakeWebhook(script: [503, 200])
        var fixes = FixScript()
        fixes.add("d1", FixScript.turtleRock)
        fixes.add("d1", FixScript.farAway)
        let result = try await runTool(
            [
                "watch", "--events", "all", "--webhook", webhook.url,
                "--webhook-header", "X-Landmark-Key: k-123", "--webhook-header", "X-Second:two",
            ],
            stdin: fixes.text, timeout: 30)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 2, "an enter and an exit")
        let requests = try webhook.requests()
        #expect(requests.map(\.status) == [503, 200, 200])
        let delivered = requests.filter { $0.status == 200 }
        #expect(Set(delivered.compactMap { $0["body"] as? String }) == Set(lines))
        for request in requests {
            #expect(request["path"] as? String == "/hooks/landmarks")
            #expect(request.header["content-type"] == "application/json")
            #expect(request.header["x-landmark-key"] == "k-123")
            #expect(request.header["x-second"] == "two")
        }
        // The retried request carries the same Idempotency-Key as its first try.
        let keys = requests.map { $0.header["idempotency-key"] ?? "" }
        #expect(Set(keys).count == 2 && keys.allSatisfy { !$0.isEmpty })
        #expect(result.stderr.contains("deliveries: 2 delivered, 1 retried, 0 failed, 0 retired"), "\(result.stderr)")
        #expect(result.stderr.contains("webhook http://127.0.0.1:\(webhook.server.port)/hooks/landmarks"))
    }

    @Test func aPermanentErrorIsLoggedAsFailed() async throws {
        let webhook = try FakeWebhook(script: [404])
        var fixes = FixScript()
        fixes.add("d1", FixScript.turtleRock)
        let result = try await runTool(["watch", "--webhook", webhook.url], stdin: fixes.text, timeout: 30)
        // Failed for good: exit 69 (EX_UNAVAILABLE), after everything else was done.
        #expect(result.status == 69, "\(result.stderr)")
        #expect(try webhook.requests().count == 1)
        #expect(result.stderr.contains("404, failed"))
        #expect(result.stderr.contains("0 delivered, 0 retried, 1 failed"), "\(result.stderr)")
    }

    @Test func anUnreachableWebhookIsRetriedUntilTheExpiration() async throws {
        // A port nothing listens on: connection refused, tried again with backoff, then given up.
        let webhook = try FakeWebhook()
        let port = webhook.server.port
        let closedURL = "http://127.0.0.1:\(port)/x"
        kill(webhook.server.process.processIdentifier, SIGKILL)
        webhook.server.process.waitUntilExit()
        var fixes = FixScript()
        fixes.add("d1", FixScript.turtleRock, timed: false)
        let started = Date()
        let result = try await runTool(["watch", "--webhook", closedURL, "--push-ttl", "3s"], stdin: fixes.text, timeout: 30)
        #expect(Date().timeIntervalSince(started) < 10)
        #expect(result.status == 69, "\(result.stderr)")
        #expect(result.stderr.contains("expired after"), "\(result.stderr)")
        #expect(result.stderr.contains("1 failed"))
    }
}
