import Foundation
import LandmarkNear

/// `serve`'s MQTT options (docs/reference/mqtt.md): `--mqtt URL`, `--mqtt-ca FILE`,
/// `--mqtt-client-id ID`, `--mqtt-password-file FILE`, `--mqtt-publish TEMPLATE`,
/// `--mqtt-receive-maximum N`.
enum MQTTOptionsParsing {
    static let valued: Set<String> = [
        "mqtt", "mqtt-ca", "mqtt-client-id", "mqtt-password-file", "mqtt-publish", "mqtt-receive-maximum",
    ]

    /// The options and the password, or nil without `--mqtt` (its companions are then refused).
    static func options(from args: ArgumentScanner) throws(ServerError) -> (options: MQTTOptions, password: String?)? {
        guard let url = args.value("mqtt") else {
            if let stray = valued.sorted().first(where: { args.value($0) != nil }) {
                throw .usage("--\(stray) goes with --mqtt URL")
            }
            return nil
        }
        var options = MQTTOptions(broker: try MQTTBrokerURL(parsing: url))
        if let ca = args.value("mqtt-ca") {
            guard options.broker.usesTLS else { throw .usage("goes with an mqtts:// URL (TLS), not mqtt://", .mqttCA) }
            guard FileManager.default.fileExists(atPath: ca) else {
                throw ServerError(kind: .missingInput, setting: .mqttCA, message: "\(TerminalText.safe(ca)): no such file")
            }
            options.caFile = ca
        }
        var password = options.broker.password
        if let file = args.value("mqtt-password-file") {
            guard password == nil else {
                throw .usage("the URL holds a password already: give it in one place only", .mqttPasswordFile)
            }
            guard options.broker.username != nil else {
                throw .usage("needs the user name in the URL (mqtt://USER@HOST/...)", .mqttPasswordFile)
            }
            password = try MQTTOptions.password(fromFile: file)
        }
        if let id = args.value("mqtt-client-id") {
            guard !id.isEmpty, id.utf8.count <= 65535, !id.utf8.contains(0) else {
                throw .usage("'\(TerminalText.safe(id))' is not a client id (1 to 65,535 bytes, no NUL)", .mqttClientID)
            }
            options.clientID = id
        } else if let state = args.value("state") {
            options.clientID = MQTTOptions.clientID(forStateFile: state)
        }
        if let text = args.value("mqtt-receive-maximum") {
            guard let number = Int(text), (1...65535).contains(number) else {
                throw .usage("takes a whole number from 1 to 65535, not '\(TerminalText.safe(text))'", .mqttReceiveMaximum)
            }
            options.receiveMaximum = number
        }
        if let template = args.value("mqtt-publish") {
            options.publishTopic = try MQTTTopicTemplate(parsing: template)
        }
        return (options, password)
    }

    /// `mqtt: 120 messages (100 locations, 15 skipped, 5 bad), 9 event lines published (9 acknowledged)`
    static func summary(of counts: MQTTStatus.Counts, unacknowledged: Int) -> String {
        func count(_ number: Int, _ noun: String) -> String { "\(number) \(noun)\(number == 1 ? "" : "s")" }
        let messages = counts.locations + counts.skipped + counts.bad
        var text =
            "mqtt: \(count(messages, "message")) (\(count(counts.locations, "location")), \(counts.skipped) skipped, \(counts.bad) bad)"
        if counts.published > 0 || counts.refused > 0 {
            text += ", \(count(counts.published, "event line")) published (\(counts.acknowledged) acknowledged"
            if counts.refused > 0 { text += ", \(counts.refused) refused" }
            text += ")"
        }
        if unacknowledged > 0 {
            text +=
                ", \(count(unacknowledged, "notification")) not acknowledged by the broker (with --state the next run publishes them again)"
        }
        return text
    }
}
