@_spi(Inlining) import LandmarkNearCore

/// `serve --mqtt URL`: `mqtt://[USER[:PASSWORD]@]HOST[:PORT][/TOPIC-FILTER]`, or `mqtts://` for
/// TLS. The port defaults to 1883 (8883 with TLS), the filter to `owntracks/+/+` (the topics
/// the OwnTracks app publishes its locations on). User, password and filter may be
/// percent-encoded (`%23` for a `#` that a shell or a URL would take otherwise). The password
/// never appears in `description`, which messages use.
///
///     let url = try MQTTBrokerURL(parsing: "mqtts://alice:s3cret@broker.example.com/owntracks/#")
///     url.port          // 8883
///     url.description   // "mqtts://alice@broker.example.com:8883/owntracks/#"
package struct MQTTBrokerURL: Sendable, Equatable, CustomStringConvertible {
    package static let defaultFilter = "owntracks/+/+"

    package var usesTLS: Bool
    package var host: String
    package var port: Int
    package var username: String?
    package var password: String?
    package var topicFilter: String

    package init(parsing text: String) throws(ServerError) {
        func bad(_ reason: String) -> ServerError {
            .usage("'\(TerminalText.safe(MQTTBrokerURL.withoutPassword(text)))' \(reason)", .mqtt)
        }
        let lowered = text.lowercased()
        let rest: Substring
        if lowered.hasPrefix("mqtt://") {
            usesTLS = false
            rest = text.dropFirst(7)
        } else if lowered.hasPrefix("mqtts://") {
            usesTLS = true
            rest = text.dropFirst(8)
        } else {
            throw bad("is not an MQTT URL (mqtt://[USER[:PASSWORD]@]HOST[:PORT]/TOPIC-FILTER, or mqtts:// for TLS)")
        }
        let slash = rest.firstIndex(of: "/") ?? rest.endIndex
        var authority = rest[..<slash]
        let path = slash < rest.endIndex ? rest[rest.index(after: slash)...] : ""
        // The last `@`: a password may hold one (percent-encoded or not).
        if let at = authority.lastIndex(of: "@") {
            let userInfo = authority[..<at]
            authority = authority[authority.index(after: at)...]
            let colon = userInfo.firstIndex(of: ":")
            guard let user = MQTTBrokerURL.percentDecoded(userInfo[..<(colon ?? userInfo.endIndex)]), !user.isEmpty else {
                throw bad("has an empty or badly percent-encoded user name")
            }
            username = user
            if let colon {
                guard let secret = MQTTBrokerURL.percentDecoded(userInfo[userInfo.index(after: colon)...]) else {
                    throw bad("has a badly percent-encoded password")
                }
                password = secret
            }
        }
        var hostPart = authority
        var portText: Substring?
        if hostPart.hasPrefix("[") {
            guard let close = hostPart.firstIndex(of: "]") else { throw bad("has an unclosed [IPv6 address]") }
            let after = hostPart[hostPart.index(after: close)...]
            if after.hasPrefix(":") {
                portText = after.dropFirst()
            } else if !after.isEmpty {
                throw bad("has text after its [IPv6 address]")
            }
            hostPart = hostPart[hostPart.index(after: hostPart.startIndex)..<close]
        } else if let colon = hostPart.lastIndex(of: ":") {
            portText = hostPart[hostPart.index(after: colon)...]
            hostPart = hostPart[..<colon]
        }
        guard !hostPart.isEmpty else { throw bad("has no host") }
        host = String(hostPart)
        if let portText {
            guard let number = Int(portText), (1...65535).contains(number) else { throw bad("has a bad port (1 to 65535)") }
            port = number
        } else {
            port = usesTLS ? 8883 : 1883
        }
        guard let filter = MQTTBrokerURL.percentDecoded(path) else { throw bad("has a badly percent-encoded topic filter") }
        topicFilter = filter.isEmpty ? MQTTBrokerURL.defaultFilter : filter
        if let problem = MQTTBrokerURL.filterProblem(topicFilter) { throw bad("has a bad topic filter: \(problem)") }
    }

    /// The URL without the password, as messages show it.
    package var description: String {
        let shownHost = host.contains(":") ? "[\(host)]" : host
        let user = username.map { "\($0)@" } ?? ""
        return "\(usesTLS ? "mqtts" : "mqtt")://\(user)\(shownHost):\(port)/\(topicFilter)"
    }

    /// The broker's address alone (`host:port`), for the connection's lines.
    package var endpoint: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

    /// Why `filter` is not an MQTT topic filter (MQTT 5.0, 4.7): not empty, at most 65,535
    /// bytes, no NUL, `+` only as a whole level, `#` only as the whole last level.
    static func filterProblem(_ filter: String) -> String? {
        if filter.utf8.count > 65535 { return "longer than 65,535 bytes" }
        if filter.utf8.contains(0) { return "it holds a NUL character" }
        let levels = filter.split(separator: "/", omittingEmptySubsequences: false)
        for (index, level) in levels.enumerated() {
            if level.contains("+") && level != "+" { return "'+' must be a whole level" }
            if level.contains("#") && (level != "#" || index != levels.count - 1) { return "'#' must be the whole last level" }
        }
        return nil
    }

    /// `%XX` escapes decoded (UTF-8); nil when an escape is malformed or the bytes are not UTF-8.
    static func percentDecoded(_ text: Substring) -> String? {
        guard text.contains("%") else { return String(text) }
        var bytes: [UInt8] = []
        var iterator = Array(text.utf8)[...]
        while let byte = iterator.popFirst() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard iterator.count >= 2, let value = UInt8(String(decoding: iterator.prefix(2), as: UTF8.self), radix: 16) else { return nil }
            bytes.append(value)
            iterator = iterator.dropFirst(2)
        }
        return String(validating: bytes, as: UTF8.self)
    }

    /// `text` with whatever stands between `user:` and the last `@` replaced, for a message
    /// about a URL that could not be parsed.
    static func withoutPassword(_ text: String) -> String {
        guard let schemeEnd = text.range(of: "://") else { return text }
        let afterScheme = text[schemeEnd.upperBound...]
        let authorityEnd = afterScheme.firstIndex(of: "/") ?? afterScheme.endIndex
        let authority = afterScheme[..<authorityEnd]
        guard let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") else { return text }
        return String(text[..<colon]) + ":***" + String(text[at...])
    }
}
