import Foundation
@_spi(Inlining) import LandmarkNearCore
import LandmarkNearDelivery

/// What `serve --mqtt` is told: the broker, TLS, the client id, the password, and where event
/// lines are published (docs/reference/mqtt.md).
package struct MQTTOptions: Sendable {
    package var broker: MQTTBrokerURL
    /// `--mqtt-ca FILE` (PEM) for `mqtts://`; without it the system's CAs.
    package var caFile: String?
    /// `--mqtt-client-id`, or the one derived from `--state`; nil: a clean session under an id
    /// the broker assigns.
    package var clientID: String?
    /// `--mqtt-publish TEMPLATE`.
    package var publishTopic: MQTTTopicTemplate?
    /// Seconds between the keep-alive pings the client owes the broker when nothing else goes.
    package var keepAlive = 30
    /// `--mqtt-receive-maximum`: how many QoS 1 messages the broker may send before it waits
    /// for their PUBACKs (MQTT 5's receive maximum), so the largest batch one commit
    /// acknowledges. 1 would be a commit (an fsync) per message; 4,096 keeps the broker sending
    /// while a commit runs (measured in Benchmarks/LOG.md).
    package var receiveMaximum = 4096

    package init(broker: MQTTBrokerURL) { self.broker = broker }

    /// A persistent session: the broker keeps the subscription and every QoS 1 message while
    /// `serve` is away, and resends what it sent and did not get a PUBACK for.
    package var persistentSession: Bool { clientID != nil }

    /// The client id of a run with `--state FILE` and no `--mqtt-client-id`:
    /// `landmark-near-` and 16 hex digits of SHA-256 of the host name and FILE's absolute path
    /// (symbolic links resolved), so that every run on that file resumes one session, and two
    /// services on one broker (other files or hosts) never take each other's.
    package static func clientID(forStateFile path: String) -> String {
        let absolute = URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
        var name = [CChar](repeating: 0, count: 256)
        gethostname(&name, name.count - 1)
        let host = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let digest = OpenSSLDigest.sha256(Array((host + "\u{0}" + absolute).utf8))
        return "landmark-near-" + OpenSSLDigest.hex(digest.prefix(8))
    }

    /// Reads the password of `--mqtt-password-file` (its first line).
    package static func password(fromFile path: String) throws(ServerError) -> String {
        guard let data = FileManager.default.contents(atPath: path) else {
            let exists = FileManager.default.fileExists(atPath: path)
            throw ServerError(
                kind: exists ? .io : .missingInput, setting: .mqttPasswordFile,
                message: "\(TerminalText.safe(path)): \(exists ? "cannot read it" : "no such file")")
        }
        guard let text = String(validating: data, as: UTF8.self) else {
            throw ServerError(kind: .badData, setting: .mqttPasswordFile, message: "\(TerminalText.safe(path)): not UTF-8 text")
        }
        let line = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        return String(line.hasSuffix("\r") ? line.dropLast() : line)
    }
}
