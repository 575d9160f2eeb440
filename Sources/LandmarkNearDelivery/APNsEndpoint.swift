@_spi(Inlining) import LandmarkNearCore

/// Where APNs requests go and what they carry besides the payload (docs/reference/delivery.md).
///
///     let endpoint = APNsEndpoint(environment: .sandbox, topic: "com.example.Landmarks.watchkitapp")
///     endpoint.baseURL   // "https://api.sandbox.push.apple.com"
package struct APNsEndpoint: Sendable, Hashable {
    package enum Environment: String, Sendable, CaseIterable {
        case sandbox, production

        package var url: String {
            switch self {
            case .sandbox: return "https://api.sandbox.push.apple.com"
            case .production: return "https://api.push.apple.com"
            }
        }
    }

    /// Scheme, host and optional port; `/3/device/<token>` is appended.
    package var baseURL: String
    /// `apns-topic`: the app's bundle id (the watch app's, for a watchOS notification).
    package var topic: String

    package init(environment: Environment, topic: String) {
        self.init(baseURL: environment.url, topic: topic)
    }

    package init(baseURL: String, topic: String) {
        var base = baseURL
        while base.hasSuffix("/") { base.removeLast() }
        self.baseURL = base
        self.topic = topic
    }
}

/// The HTTP/2 request for one APNs job: `POST /3/device/<token>` and the headers Apple reads.
package struct APNsRequest: Equatable {
    var url: String
    /// Header lines, `name: value`, in the order sent.
    var headers: [String]
    var body: String

    init(job: DeliveryJob, token: String, endpoint: APNsEndpoint, providerToken: String) {
        url = endpoint.baseURL + "/3/device/" + token
        var headers = [
            "authorization: bearer " + providerToken,
            "apns-topic: " + endpoint.topic,
            "apns-push-type: alert",
            "apns-priority: 10",
            "apns-expiration: \(job.expiration)",
            "apns-id: " + job.id,
        ]
        if let collapseID = job.collapseID { headers.append("apns-collapse-id: " + collapseID) }
        headers.append("content-type: application/json")
        self.headers = headers
        body = job.body
    }
}

extension APNsRequest {
    /// The payload as APNs gets it: without the `"Simulator Target Bundle"` key that
    /// `--bundle-id` puts first (docs/reference/delivery.md).
    ///
    ///     APNsRequest.body(fromPayload: #"{"Simulator Target Bundle":"a.b","aps":{}}"#)   // {"aps":{}}
    package static func body(fromPayload payload: String) -> String {
        let key = Array(#"{"Simulator Target Bundle":""#.utf8)
        let bytes = Array(payload.utf8)
        guard bytes.starts(with: key) else { return payload }
        var index = key.count
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\\"): index += 2
            case UInt8(ascii: "\""):
                guard index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: ",") else { return payload }
                return "{" + String(decoding: bytes[(index + 2)...], as: UTF8.self)
            default: index += 1
            }
        }
        return payload
    }
}

/// How an APNs answer is handled (docs/reference/delivery.md).
enum APNsAnswer: Equatable {
    case delivered
    /// Retire the token: 410, or 400 BadDeviceToken / DeviceTokenNotForTopic.
    case retireToken(String)
    /// 403 ExpiredProviderToken: sign a new JWT and send again at once.
    case renewProviderToken
    /// 429, 500, 503: try again later.
    case temporary(String)
    case failed(String)

    /// `reason` is the `"reason"` of APNs's JSON error body, when there is one.
    init(status: Int, reason: String?) {
        let label = reason.map { "\(status) \($0)" } ?? "\(status)"
        switch (status, reason) {
        case (200, _): self = .delivered
        case (410, _): self = .retireToken(label)
        case (400, "BadDeviceToken"?), (400, "DeviceTokenNotForTopic"?): self = .retireToken(label)
        case (403, "ExpiredProviderToken"?): self = .renewProviderToken
        case (429, _), (500, _), (503, _): self = .temporary(label)
        default: self = .failed(label)
        }
    }

    /// The `reason` of an APNs error body (`{"reason":"BadDeviceToken"}`), cut to a short,
    /// printable word: the body is untrusted.
    static func reason(fromBody body: [UInt8]) -> String? {
        guard !body.isEmpty, body.count <= 64 * 1024,
            let object = try? JSONParser.parse(body).objectValue,
            case .string(let text)? = object["reason"]
        else { return nil }
        let kept = text.unicodeScalars.prefix(64).filter { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0)) }
        return kept.isEmpty ? nil : String(String.UnicodeScalarView(kept))
    }
}
