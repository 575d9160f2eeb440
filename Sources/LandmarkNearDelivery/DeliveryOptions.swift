/// What `--push apns`, `--webhook` and their options say (docs/reference/delivery.md). Everything here is a
/// value: the delivery thread builds its own key, token cache and transport from it.
///
///     var options = DeliveryOptions()
///     options.apns = APNsOptions(keyPEM: Array(pem.utf8), keySource: "AuthKey.p8", keyID: "ABC123DEFG",
///                                teamID: "DEF123GHIJ", endpoint: APNsEndpoint(environment: .sandbox, topic: "com.example.app"))
///     options.webhooks = ["https://hooks.example.com/landmarks"]
package struct DeliveryOptions: Sendable {
    package var apns: APNsOptions?
    package var webhooks: [String] = []
    /// `Name: value` lines sent with every webhook request.
    package var webhookHeaders: [String] = []
    /// Added to the fix time (or now) for `apns-expiration` and the retry deadline.
    package var timeToLive: Double = 3600
    /// A webhook line is data, not an alert: retried until this long after the notification
    /// was decided (wall clock), so a replay of old fixes is delivered too (`--webhook-ttl`).
    package var webhookTimeToLive: Double = 86_400
    /// PEM CA certificates trusted besides the system's (`--apns-ca`).
    package var extraCAPEM: [UInt8]?
    package var extraCASource = "--apns-ca"
    /// Jobs accepted but not finished; reading waits when this many are outstanding (about
    /// half a kilobyte each).
    package var queueCapacity = 10_000
    /// Requests in flight at once: HTTP/2 streams on the one connection (libcurl keeps to the
    /// server's SETTINGS_MAX_CONCURRENT_STREAMS; APNs allows up to 1,000).
    package var maximumInFlight = 1000
    /// Where outcomes are made durable (`--state`); nil keeps them in this run only.
    package var ledger: (any DeliveryLedger)?
    /// Log every delivery on stderr, not only retries, failures and retirements.
    package var verbose = false

    package init() {}

    package var isEnabled: Bool { apns != nil || !webhooks.isEmpty }
}

package struct APNsOptions: Sendable {
    package var keyPEM: [UInt8]
    /// The key's file name, for messages (the key itself never appears in output).
    package var keySource: String
    package var keyID: String
    package var teamID: String
    package var endpoint: APNsEndpoint

    package init(keyPEM: [UInt8], keySource: String, keyID: String, teamID: String, endpoint: APNsEndpoint) {
        self.keyPEM = keyPEM
        self.keySource = keySource
        self.keyID = keyID
        self.teamID = teamID
        self.endpoint = endpoint
    }

    /// Apple's key ids and team ids are 10 letters or digits.
    package static func isAppleIdentifier(_ text: String) -> Bool {
        text.utf8.count == 10
            && text.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) }
    }
}
