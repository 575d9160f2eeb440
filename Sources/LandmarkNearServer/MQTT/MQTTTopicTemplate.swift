@_spi(Inlining) import LandmarkNearCore

/// `serve --mqtt-publish TEMPLATE`: the topic each event line is published on, with `{device}`
/// standing for the event's device (`landmarknear/{device}/event` gives
/// `landmarknear/alice/phone/event` for OwnTracks' `alice/phone`: the `/` of a device name
/// makes topic levels, as OwnTracks' own topics do). A device name's `+`, `#` and NUL, which a
/// topic may not hold, become `_`.
///
///     let template = try MQTTTopicTemplate(parsing: "landmarknear/{device}/event")
///     template.topic(device: "alice/phone")   // "landmarknear/alice/phone/event"
package struct MQTTTopicTemplate: Sendable, Equatable {
    private var parts: [Part]

    private enum Part: Sendable, Equatable {
        case text(String)
        case device
    }

    package init(parsing template: String) throws(ServerError) {
        func bad(_ reason: String) -> ServerError { .usage("'\(TerminalText.safe(template))' \(reason)", .mqttPublish) }
        guard !template.isEmpty else { throw bad("is empty: give a topic, e.g. landmarknear/{device}/event") }
        if template.contains("+") || template.contains("#") || template.utf8.contains(0) {
            throw bad("holds '+', '#' or NUL, which a topic to publish on may not")
        }
        parts = []
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{") {
            if open > rest.startIndex { parts.append(.text(String(rest[..<open]))) }
            guard let close = rest[open...].firstIndex(of: "}") else { throw bad("has a '{' without its '}'") }
            let name = rest[rest.index(after: open)..<close]
            guard name == "device" else { throw bad("has {\(TerminalText.safe(String(name)))}: the only placeholder is {device}") }
            parts.append(.device)
            rest = rest[rest.index(after: close)...]
        }
        if rest.contains("}") { throw bad("has a '}' without its '{'") }
        if !rest.isEmpty { parts.append(.text(String(rest))) }
    }

    /// The topic for an event of `device`.
    package func topic(device: String) -> String {
        var topic = ""
        for part in parts {
            switch part {
            case .text(let text): topic += text
            case .device: topic += MQTTTopicTemplate.level(device)
            }
        }
        return topic
    }

    private static func level(_ device: String) -> String {
        guard device.utf8.contains(where: { $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "#") || $0 == 0 }) else { return device }
        return String(device.map { $0 == "+" || $0 == "#" || $0 == "\0" ? "_" : $0 })
    }
}
