@_spi(Inlining) import LandmarkNearCore

/// `--nats URL[,URL...]`: the servers of one NATS cluster, any of which the client may use
/// (libnats connects to one and moves to another when it is lost). Each is `nats://HOST:PORT`
/// (`HOST:PORT` alone means the same; the port defaults to 4222), with `USER:PASSWORD@` when
/// the servers ask for it; what is shown of a URL never holds the password.
///
///     let servers = try NATSServers(parsing: "nats://127.0.0.1:4222,nats://127.0.0.1:4223")
///     servers.urls      // what libnats is given
///     servers.shown     // "nats://127.0.0.1:4222,nats://127.0.0.1:4223"
package struct NATSServers: Sendable, Equatable {
    /// The URLs as libnats takes them.
    package let urls: [String]
    /// The URLs without their passwords, for messages.
    package let shownURLs: [String]

    package var shown: String { shownURLs.joined(separator: ",") }

    package init(parsing text: String) throws(ServerError) {
        var urls: [String] = []
        var shown: [String] = []
        for item in text.split(separator: ",", omittingEmptySubsequences: false) {
            let url = String(item.drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
            let (full, visible) = try NATSServers.check(url, in: text)
            urls.append(full)
            shown.append(visible)
        }
        self.urls = urls
        shownURLs = shown
    }

    /// The URL with its scheme and port made explicit, and the same without its password.
    private static func check(_ url: String, in whole: String) throws(ServerError) -> (String, String) {
        func refuse(_ reason: String) -> ServerError {
            .usage("\(TerminalText.singleQuoted(NATSServers.redacted(whole))) is not a NATS server list: \(reason)", .nats)
        }
        guard !url.isEmpty else { throw refuse("an empty URL (give nats://HOST:PORT, several separated by commas)") }
        var rest = Substring(url)
        if let range = rest.range(of: "://") {
            let scheme = rest[..<range.lowerBound].lowercased()
            guard scheme == "nats" else { throw refuse("the scheme is \(TerminalText.singleQuoted(scheme)), not nats") }
            rest = rest[range.upperBound...]
        }
        var userinfo = ""
        if let at = rest.lastIndex(of: "@") {
            userinfo = String(rest[..<at])
            rest = rest[rest.index(after: at)...]
        }
        if rest.hasSuffix("/") { rest = rest.dropLast() }
        guard !rest.contains("/"), !rest.contains("?") else { throw refuse("a NATS URL has no path or query") }
        var host = String(rest)
        var port = 4222
        // [::1]:4222, 127.0.0.1:4222, localhost
        if let colon = rest.lastIndex(of: ":"), !rest.hasSuffix("]") {
            host = String(rest[..<colon])
            guard let number = Int(rest[rest.index(after: colon)...]), (1...65535).contains(number) else {
                throw refuse("the port must be a number from 1 to 65535")
            }
            port = number
        }
        guard !host.isEmpty, host.allSatisfy({ $0.isASCII && !$0.isWhitespace }) else { throw refuse("no host") }
        let visibleUser = userinfo.split(separator: ":", maxSplits: 1).first.map { "\($0)@" } ?? ""
        return ("nats://\(userinfo.isEmpty ? "" : userinfo + "@")\(host):\(port)", "nats://\(visibleUser)\(host):\(port)")
    }

    /// `text` with every password in it replaced by `***` (for the message that refuses it).
    private static func redacted(_ text: String) -> String {
        text.split(separator: ",", omittingEmptySubsequences: false).map { item -> String in
            guard let at = item.lastIndex(of: "@") else { return String(item) }
            let head = item[..<at]
            let start = head.range(of: "://")?.upperBound ?? head.startIndex
            guard let colon = head[start...].firstIndex(of: ":") else { return String(item) }
            return String(item[..<colon]) + ":***" + String(item[at...])
        }.joined(separator: ",")
    }
}
