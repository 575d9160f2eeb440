@_spi(Inlining) import LandmarkNearCore

/// Why `serve` cannot start or had to stop: its kind, the setting it concerns (so that the
/// tool can name its option), and what happened.
///
///     do { _ = try ListenAddress(parsing: "8083") }
///     catch { (error.kind, error.setting) }   // (.usage, .listen); "'8083' is not HOST:PORT ..."
package struct ServerError: LandmarkNearError, Sendable {
    package enum Setting: String, Sendable {
        /// The listen address.
        case listen
        /// The users file.
        case users
        /// The MQTT broker's URL, and the options that go with it.
        case mqtt
        case mqttCA = "mqtt-ca"
        case mqttClientID = "mqtt-client-id"
        case mqttPasswordFile = "mqtt-password-file"
        case mqttPublish = "mqtt-publish"
        case mqttReceiveMaximum = "mqtt-receive-maximum"
        /// The NATS servers, the stream and the partitions (`serve --nats`, `publish`).
        case nats
        case natsStream = "nats-stream"
        case natsPartitions = "nats-partitions"
        /// `--tls-cert` and `--tls-key`.
        case tlsCertificate = "tls-cert"
        case tlsKey = "tls-key"
    }

    package var kind: ErrorKind
    package var setting: Setting?
    package var message: String

    package init(kind: ErrorKind, setting: Setting? = nil, message: String) {
        self.kind = kind
        self.setting = setting
        self.message = message
    }

    package var description: String { message }

    package static func usage(_ message: String, _ setting: Setting? = nil) -> ServerError {
        ServerError(kind: .usage, setting: setting, message: message)
    }
    static func missingInput(_ message: String, _ setting: Setting? = nil) -> ServerError {
        ServerError(kind: .missingInput, setting: setting, message: message)
    }
    static func badData(_ message: String, _ setting: Setting? = nil) -> ServerError {
        ServerError(kind: .badData, setting: setting, message: message)
    }
    static func io(_ message: String, _ setting: Setting? = nil) -> ServerError {
        ServerError(kind: .io, setting: setting, message: message)
    }
}
