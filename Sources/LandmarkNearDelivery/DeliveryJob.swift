@_spi(Inlining) import LandmarkNearCore

/// One delivery: a notification (or an event line) to one APNs device token or one webhook.
/// A job carries everything needed to send it again after a restart with the same identity:
/// its `id` (the `apns-id`, or the webhook's `Idempotency-Key`) and `collapseID` are derived
/// from the notification, never random.
///
///     let job = DeliveryJob.apns(notification: key, token: "a1b2…", payload: payload, expiration: 1_777_640_400)
///     job.id          // the same UUID every time this notification goes to this token
package struct DeliveryJob: Sendable, Hashable {
    package enum Target: Sendable, Hashable {
        /// An APNs device token, lower-case hex.
        case apns(token: String)
        /// A webhook URL.
        case webhook(url: String)
    }

    package var notification: NotificationKey
    package var target: Target
    /// A UUID, stable for (notification, target).
    package var id: String
    /// `apns-collapse-id`: stable per device and landmark, at most 64 bytes (APNs jobs only).
    package var collapseID: String?
    /// The request body: the APNs payload, or the event line.
    package var body: String
    /// Epoch seconds after which the job is not tried again (`apns-expiration`).
    package var expiration: Int64
    /// The notification's row in the `--state` log, when there is one (durable jobs only).
    package var notificationID: Int64?

    package init(notification: NotificationKey, target: Target, id: String, collapseID: String?, body: String, expiration: Int64) {
        self.notification = notification
        self.target = target
        self.id = id
        self.collapseID = collapseID
        self.body = body
        self.expiration = expiration
    }

    /// An APNs job for `token` (lower-case hex).
    package static func apns(notification: NotificationKey, token: String, payload: String, expiration: Int64) -> DeliveryJob {
        DeliveryJob(
            notification: notification, target: .apns(token: token),
            id: NameBasedUUID.make(namespace: NameBasedUUID.deliveryNamespace, name: notification.identity + "\u{0}apns\u{0}" + token),
            collapseID: notification.collapseID, body: payload, expiration: expiration)
    }

    /// A webhook job posting `line` to `url`.
    package static func webhook(notification: NotificationKey, url: String, line: String, expiration: Int64) -> DeliveryJob {
        DeliveryJob(
            notification: notification, target: .webhook(url: url),
            id: NameBasedUUID.make(namespace: NameBasedUUID.deliveryNamespace, name: notification.identity + "\u{0}webhook\u{0}" + url),
            collapseID: nil, body: line, expiration: expiration)
    }

    /// How the target appears in logs: a token as `…` and its last 8 hex digits, never whole.
    package var targetLabel: String {
        switch target {
        case .apns(let token): return "apns token …" + DeviceToken.tail(token)
        case .webhook(let url): return "webhook " + TerminalText.safe(WebhookRequest.redacted(url))
        }
    }
}

/// Which event a delivery belongs to: device, landmark and fix (its time, or its number in the
/// run when it has none), as the `.apns` file names are keyed (docs/reference/payloads.md), plus the event kind.
package struct NotificationKey: Sendable, Hashable {
    package var device: String
    package var landmarkID: Int
    package var time: Timestamp?
    package var fixNumber: Int
    /// "enter" for notifications; webhooks also get "exit" lines with `--events all`.
    package var event: String

    package init(device: String, landmarkID: Int, time: Timestamp?, fixNumber: Int, event: String = "enter") {
        self.device = device
        self.landmarkID = landmarkID
        self.time = time
        self.fixNumber = fixNumber
        self.event = event
    }

    /// The bytes the ids are derived from: unambiguous (NUL-separated, the device last but
    /// length-prefixed) and independent of the run's other settings.
    var identity: String {
        let fix = time.map { "t\($0.seconds).\($0.nanoseconds)" } ?? "n\(fixNumber)"
        return "\(event)\u{0}\(landmarkID)\u{0}\(fix)\u{0}\(device.utf8.count):\(device)"
    }

    /// `landmark-<id>-<16 hex of SHA-256(device)>`: the same for every notification of this
    /// device about this landmark, so a newer one replaces an older one still waiting in APNs.
    var collapseID: String {
        "landmark-\(landmarkID)-" + OpenSSLDigest.hex(OpenSSLDigest.sha256(Array(device.utf8)).prefix(8))
    }
}
