import Foundation
import Testing

@_spi(Inlining) @testable import LandmarkNearCore
@testable import LandmarkNearDelivery

/// The delivery layer's parts, one at a time: ids, tokens, JWT pieces, answers, backoff.
@Suite(.timeLimit(.minutes(1)))
struct DeliveryPartsTests {
    @Test func nameBasedUUIDsMatchRFC9562() {
        // Python: uuid.uuid5(uuid.NAMESPACE_DNS, "python.org")
        #expect(NameBasedUUID.make(namespace: NameBasedUUID.dnsNamespace, name: "python.org") == "886313e1-3b8a-5372-9b90-0c9aee199e5d")
    }

    @Test func jobIdentitiesAreStableAndDistinct() {
        let t = Timestamp(seconds: 1_777_636_800)
        let key = NotificationKey(device: "d1", landmarkID: 1002, time: t, fixNumber: 7)
        let a = DeliveryJob.apns(notification: key, token: "aa", payload: "{}", expiration: 1)
        #expect(a.id == DeliveryJob.apns(notification: key, token: "aa", payload: "{\"other\":1}", expiration: 2).id)
        #expect(a.id != DeliveryJob.apns(notification: key, token: "bb", payload: "{}", expiration: 1).id)
        var later = key
        later.time = Timestamp(seconds: 1_777_636_801)
        #expect(a.id != DeliveryJob.apns(notification: later, token: "aa", payload: "{}", expiration: 1).id)
        // Devices whose names could run together stay apart.
        let x = NotificationKey(device: "d1\u{0}1002", landmarkID: 1002, time: nil, fixNumber: 1)
        let y = NotificationKey(device: "d1", landmarkID: 1002, time: nil, fixNumber: 1)
        #expect(x.identity != y.identity)
        // The collapse id: the same for every fix of a device and landmark, at most 64 bytes.
        #expect(a.collapseID == DeliveryJob.apns(notification: later, token: "bb", payload: "{}", expiration: 1).collapseID)
        let long = NotificationKey(device: String(repeating: "é", count: 500), landmarkID: Int.min, time: nil, fixNumber: 1)
        #expect((long.collapseID.utf8.count) <= 64)
        #expect(long.collapseID != y.collapseID)
    }

    @Test(
        arguments: [
            ("a1B2c3D4", "a1b2c3d4"), ("00", "00"), ("", nil), ("abc", nil), ("zz", nil), ("a1 b2", nil),
            (String(repeating: "ab", count: 100), String(repeating: "ab", count: 100)), (String(repeating: "ab", count: 101), nil),
        ] as [(String, String?)])
    func deviceTokensAreEvenHex(_ text: String, _ expected: String?) {
        #expect(DeviceToken.normalized(text) == expected)
    }

    @Test func requestsCarryTheAPNsHeaders() {
        let key = NotificationKey(device: "d1", landmarkID: 1002, time: nil, fixNumber: 3)
        let job = DeliveryJob.apns(notification: key, token: "abcd", payload: "{\"aps\":{}}", expiration: 1_777_640_400)
        let request = APNsRequest(
            job: job, token: "abcd", endpoint: APNsEndpoint(baseURL: "https://apns.test:2197/", topic: "com.example.app"),
            providerToken: "h.c.s")
        #expect(request.url == "https://apns.test:2197/3/device/abcd")
        #expect(
            request.headers == [
                "authorization: bearer h.c.s", "apns-topic: com.example.app", "apns-push-type: alert", "apns-priority: 10",
                "apns-expiration: 1777640400", "apns-id: \(job.id)", "apns-collapse-id: \(key.collapseID)",
                "content-type: application/json",
            ])
        #expect(APNsEndpoint(environment: .production, topic: "t").baseURL == "https://api.push.apple.com")
        #expect(APNsEndpoint(environment: .sandbox, topic: "t").baseURL == "https://api.sandbox.push.apple.com")
    }

    @Test(
        arguments: [
            (200, nil, APNsAnswer.delivered), (410, "Unregistered", .retireToken("410 Unregistered")),
            (400, "BadDeviceToken", .retireToken("400 BadDeviceToken")),
            (400, "DeviceTokenNotForTopic", .retireToken("400 DeviceTokenNotForTopic")),
            (400, "BadTopic", .failed("400 BadTopic")), (403, "ExpiredProviderToken", .renewProviderToken),
            (403, "InvalidProviderToken", .failed("403 InvalidProviderToken")), (429, "TooManyRequests", .temporary("429 TooManyRequests")),
            (500, nil, .temporary("500")), (503, "ServiceUnavailable", .temporary("503 ServiceUnavailable")),
            (413, "PayloadTooLarge", .failed("413 PayloadTooLarge")),
        ] as [(Int, String?, APNsAnswer)])
    func answersFollowTheAPNsRules(_ status: Int, _ reason: String?, _ expected: APNsAnswer) {
        #expect(APNsAnswer(status: status, reason: reason) == expected)
    }

    @Test func reasonsFromUntrustedBodiesAreShortWords() {
        #expect(APNsAnswer.reason(fromBody: Array(#"{"reason":"BadDeviceToken"}"#.utf8)) == "BadDeviceToken")
        #expect(APNsAnswer.reason(fromBody: Array(#"{"reason":"Bad\u001b[31mToken\n"}"#.utf8)) == "Bad31mToken")
        #expect(APNsAnswer.reason(fromBody: Array("not json".utf8)) == nil)
        #expect(APNsAnswer.reason(fromBody: Array(#"{"reason":42}"#.utf8)) == nil)
    }

    @Test func backoffDoublesFromOneSecondUpToFiveMinutesWithJitter() {
        var random = SystemRandomNumberGenerator()
        #expect((1...12).map { Backoff.nominal(afterAttempt: $0) } == [1, 2, 4, 8, 16, 32, 64, 128, 256, 300, 300, 300])
        for attempt in 1...40 {
            let nominal = Backoff.nominal(afterAttempt: attempt)
            let delays = (0..<50).map { _ in Backoff.delay(afterAttempt: attempt, using: &random) }
            #expect(delays.allSatisfy { $0 >= nominal / 2 && $0 <= nominal && $0 <= 300 })
            #expect(Set(delays).count > 1, "jitter")
        }
    }

    @Test func webhookHeadersAndURLsAreCheckedAndRedacted() {
        #expect(WebhookRequest.parseHeader("Authorization: Bearer x")! == ("Authorization", "Bearer x"))
        #expect(WebhookRequest.parseHeader("X-A:b")! == ("X-A", "b"))
        #expect(WebhookRequest.parseHeader("no colon") == nil)
        #expect(WebhookRequest.parseHeader("Bad Name: v") == nil)
        #expect(WebhookRequest.parseHeader("X: a\r\nInjected: 1") == nil)
        #expect(WebhookRequest.redacted("https://user:secret@hooks.example.com/a/b?token=s#f") == "https://hooks.example.com/a/b")
        #expect(WebhookRequest.redacted("http://127.0.0.1:8080/x") == "http://127.0.0.1:8080/x")
    }

    @Test func joseSignaturesComeFromDERWithPadding() throws {
        // SEQUENCE { INTEGER 0x00ff (a leading zero for the sign), INTEGER 0x01 }
        let der: [UInt8] = [0x30, 0x07, 0x02, 0x02, 0x00, 0xFF, 0x02, 0x01, 0x01]
        let jose = try APNsSigningKey.joseSignature(fromDER: der)
        #expect(jose.count == 64)
        #expect(jose[31] == 0xFF && jose[0..<31].allSatisfy { $0 == 0 })
        #expect(jose[63] == 0x01 && jose[32..<63].allSatisfy { $0 == 0 })
        #expect(throws: DeliveryError.self) { try APNsSigningKey.joseSignature(fromDER: [0x30, 0x00]) }
    }

    @Test func providerTokensAreReusedForFortyMinutes() throws {
        let directory = try makeTemporaryDirectory("jwt")
        defer { try? FileManager.default.removeItem(at: directory) }
        let keyURL = directory.appendingPathComponent("k.p8")
        try Counterparts.makeKey(at: keyURL)
        let key = try APNsSigningKey(pem: Array(try Data(contentsOf: keyURL)), source: "k.p8")
        let tokens = ProviderToken(key: key, keyID: "ABC123DEFG", teamID: "DEF123GHIJ")
        let first = try tokens.current(now: 1_000_000)
        #expect(try tokens.current(now: 1_000_000 + 40 * 60 - 1) == first)
        let renewed = try tokens.current(now: 1_000_000 + 40 * 60)
        #expect(renewed != first)
        let parts = renewed.split(separator: ".").map(String.init)
        #expect(parts.count == 3)
        #expect(parts[0] == Base64URL.encode(Array(#"{"alg":"ES256","kid":"ABC123DEFG"}"#.utf8)))
        #expect(parts[1] == Base64URL.encode(Array(#"{"iss":"DEF123GHIJ","iat":1002400}"#.utf8)))
        #expect(parts.allSatisfy { !$0.contains("=") && !$0.contains("+") && !$0.contains("/") })
        #expect(throws: DeliveryError.self) {
            try APNsSigningKey(pem: Array("-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n".utf8), source: "x")
        }
    }
}
