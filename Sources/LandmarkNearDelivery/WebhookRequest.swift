/// `--webhook URL` deliveries: each event line POSTed as `application/json`, with the
/// `--webhook-header` lines and an `Idempotency-Key` (the job's stable UUID) so a receiver can
/// drop the repeats that at-least-once delivery allows.
///
///     WebhookRequest.parseHeader("Authorization: Bearer abc")   // ("Authorization", "Bearer abc")
package struct WebhookRequest: Equatable {
    var url: String
    var headers: [String]
    var body: String

    package init(job: DeliveryJob, url: String, extraHeaders: [String]) {
        self.url = url
        headers = ["Content-Type: application/json", "Idempotency-Key: " + job.id] + extraHeaders
        body = job.body
    }

    /// A `Name: value` header line, checked: a token name and a value without CR, LF or NUL
    /// (which would let a header smuggle another one).
    package static func parseHeader(_ line: String) -> (name: String, value: String)? {
        guard let colon = line.firstIndex(of: ":") else { return nil }
        let name = String(line[..<colon])
        let value = String(line[line.index(after: colon)...]).trimmingASCIISpaces
        let tokenCharacters = Set("!#$%&'*+-.^_`|~".utf8)
        guard !name.isEmpty,
            name.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x7A) || tokenCharacters.contains($0) }
            ),
            !value.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0x00 })
        else { return nil }
        return (name, value)
    }

    /// The URL as logs show it: without user:password and without the query (which often
    /// carries a secret), e.g. `https://hooks.example.com/notify`.
    package static func redacted(_ url: String) -> String {
        var text = Substring(url)
        if let query = text.firstIndex(where: { $0 == "?" || $0 == "#" }) { text = text[..<query] }
        if let scheme = text.range(of: "://") {
            let rest = text[scheme.upperBound...]
            let authorityEnd = rest.firstIndex(of: "/") ?? rest.endIndex
            if let at = rest[..<authorityEnd].lastIndex(of: "@") {
                text = text[..<scheme.upperBound] + rest[rest.index(after: at)...]
            }
        }
        return String(text)
    }
}

/// How a webhook answer is handled: the APNs rules without token retirement.
enum WebhookAnswer: Equatable {
    case delivered
    case temporary(String)
    case failed(String)

    package init(status: Int) {
        switch status {
        case 200..<300: self = .delivered
        case 429, 500, 503: self = .temporary("\(status)")
        default: self = .failed("\(status)")
        }
    }
}

extension String {
    var trimmingASCIISpaces: String {
        var view = Substring(self)
        while let first = view.first, first == " " || first == "\t" { view.removeFirst() }
        while let last = view.last, last == " " || last == "\t" { view.removeLast() }
        return String(view)
    }
}
