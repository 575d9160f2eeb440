import LandmarkNearDelivery
import LandmarkNearEngine
import LandmarkNearOutputs
import Synchronization

/// The counters `GET /metrics` shows, in Prometheus' text format (version 0.0.4): the engine's
/// (published by the engine thread after each batch), the HTTP side's (answers by status),
/// with `--push`/`--webhook` the delivery thread's, and with `--mqtt` the MQTT connections'
/// (both read when rendered).
///
///     let metrics = ServerMetrics(deliveries: session.deliveryStatisticsReader)
///     metrics.count(status: 200)
///     metrics.publish(session.statistics)
///     metrics.render()   // "# HELP landmark_near_fixes_total ...\n..."
package final class ServerMetrics: Sendable {
    private struct Counters {
        var engine = WatchStatistics()
        var responses: [Int: Int] = [:]
        var fixesAccepted = 0
        var admin: AdminCounts?
    }

    private let counters = Mutex(Counters())
    private let deliveries: (@Sendable () -> DeliveryStatistics)?
    /// With `--mqtt`: the connections' state (for /healthz too) and counters.
    package let mqtt: MQTTStatus?
    /// With `--nats`: the connection's and partitions' state (for /healthz too) and counters.
    package let nats: NATSStatus?

    package init(deliveries: (@Sendable () -> DeliveryStatistics)? = nil, mqtt: MQTTStatus? = nil, nats: NATSStatus? = nil) {
        self.deliveries = deliveries
        self.mqtt = mqtt
        self.nats = nats
    }

    package func count(status: Int) {
        counters.withLock { $0.responses[status, default: 0] += 1 }
    }

    package func publish(_ statistics: WatchStatistics) {
        counters.withLock { $0.engine = statistics }
    }

    package var engineStatistics: WatchStatistics { counters.withLock { $0.engine } }

    /// The catalog's size, the admin changes applied and who is inside (the engine thread's).
    package func publishAdmin(_ counts: AdminCounts) {
        counters.withLock { $0.admin = counts }
    }

    package func render() -> String {
        let counters = counters.withLock { $0 }
        let engine = counters.engine
        var text = ""
        func family(_ name: String, _ help: String, _ samples: [(labels: String, value: Int)]) {
            text += "# HELP landmark_near_\(name) \(help)\n# TYPE landmark_near_\(name) counter\n"
            for sample in samples {
                text += "landmark_near_\(name)\(sample.labels.isEmpty ? "" : "{\(sample.labels)}") \(sample.value)\n"
            }
        }
        family("records_total", "Records received (fixes and unreadable records).", [("", engine.recordsRead)])
        family(
            "fixes_total", "Fixes by what the engine did with them.",
            [("result=\"used\"", engine.used)]
                + DropReason.allCases.map { ("result=\"dropped_\($0.rawValue)\"", engine.dropped[$0, default: 0]) })
        family(
            "unreadable_records_total", "Records that could not be read (bad JSON, bad numbers, missing coordinates).",
            [("", engine.unreadable)])
        family("notifications_total", "Notifications (enters not suppressed).", [("", engine.notifications)])
        family(
            "enters_total", "Enter events, by suppression.",
            [("suppressed=\"none\"", engine.notifications)]
                + [ProximityEvent.Suppression.cooldown, .profile, .quiet].map {
                    ("suppressed=\"\($0.rawValue)\"", engine.suppressed[$0, default: 0])
                })
        family("exits_total", "Exit events.", [("", engine.exits)])
        var deliverySamples = [("channel=\"apns_file\",status=\"written\"", engine.apnsFilesWritten)]
        if let delivered = deliveries?() {
            // push: the requests to APNs and to the webhooks (one per token or URL).
            deliverySamples += [
                ("delivered", delivered.delivered), ("retried", delivered.retried), ("failed", delivered.failed),
                ("retired", delivered.retired), ("skipped", delivered.skipped),
            ]
            .map { ("channel=\"push\",status=\"\($0.0)\"", $0.1) }
        }
        family(
            "deliveries_total", "Notification deliveries by channel (apns_file: .apns files; push: APNs and webhook requests) and status.",
            deliverySamples)
        family(
            "http_responses_total", "HTTP answers by status code.",
            counters.responses.sorted { $0.key < $1.key }.map { ("code=\"\($0.key)\"", $0.value) })
        text += "# HELP landmark_near_devices Devices seen.\n# TYPE landmark_near_devices gauge\nlandmark_near_devices \(engine.devices)\n"
        if let admin = counters.admin {
            func gauge(_ name: String, _ help: String, _ value: Int) {
                text += "# HELP landmark_near_\(name) \(help)\n# TYPE landmark_near_\(name) gauge\nlandmark_near_\(name) \(value)\n"
            }
            gauge("catalog_landmarks", "Landmarks in the catalog in force (deleted positions not counted).", admin.landmarks)
            family(
                "admin_changes_total", "Changes to the catalog and profiles applied over the API since start.", [("", admin.changesApplied)]
            )
            gauge(
                "devices_inside", "Devices inside at least one landmark now (beyond 10,000 devices, counted at most once a second).",
                admin.devicesInside)
            gauge("inside_pairs", "Device and landmark pairs with the device inside now.", admin.insidePairs)
        }
        if let mqtt {
            let counts = mqtt.counts
            family(
                "mqtt_messages_total", "MQTT messages received, by what they were (location fixes, other _types skipped, unreadable).",
                [("result=\"location\"", counts.locations), ("result=\"skipped\"", counts.skipped), ("result=\"bad\"", counts.bad)])
            family(
                "mqtt_connections_total", "Connections to the MQTT broker it accepted (the first and every reconnection).",
                [("", counts.connections)])
            family(
                "mqtt_published_total", "Event lines published with --mqtt-publish, by status.",
                [
                    ("status=\"sent\"", counts.published), ("status=\"acknowledged\"", counts.acknowledged),
                    ("status=\"refused\"", counts.refused),
                ])
            text += "# HELP landmark_near_mqtt_connected Whether the subscription to the MQTT broker is up (1) or not (0).\n"
            text += "# TYPE landmark_near_mqtt_connected gauge\nlandmark_near_mqtt_connected \(mqtt.isConnected ? 1 : 0)\n"
        }
        if let nats {
            let counts = nats.counts
            family(
                "nats_messages_total", "Messages read from the stream's partitions (all of them, duplicates included).",
                [("", counts.messages)])
            family("nats_unreadable_total", "Messages that were not a readable fix (reported, acknowledged).", [("", counts.unreadable)])
            family(
                "nats_duplicates_total", "Messages delivered again at or below the sequence already read (dropped).",
                [("", counts.duplicates)])
            family(
                "nats_connections_total", "Connections made to a NATS server (the first and every reconnection).",
                [("", counts.connections)])
            text += "# HELP landmark_near_nats_connected Whether the connection to the NATS servers is up (1) or not (0).\n"
            text += "# TYPE landmark_near_nats_connected gauge\nlandmark_near_nats_connected \(nats.isConnected ? 1 : 0)\n"
        }
        return text
    }
}
