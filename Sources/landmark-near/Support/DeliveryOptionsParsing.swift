import Foundation
import LandmarkNear

#if canImport(Glibc)
import Glibc
#endif

/// `--push apns`, the `--apns-*` options, `--push-ttl`, `--webhook` and `--webhook-header`
/// (docs/reference/delivery.md), checked before anything is read.
enum DeliveryOptionsParsing {
    static let valued: Set<String> = [
        "push", "apns-key", "apns-key-id", "apns-team-id", "apns-topic", "apns-environment",
        "apns-url", "apns-ca", "push-ttl", "push-queue", "webhook", "webhook-header", "webhook-ttl",
    ]

    static let help = """
          --push KIND          'apns': send each notification to every APNs token of its
                               device ("apnsTokens" in --profiles) over HTTP/2, token auth
          --apns-key FILE      the .p8 key from the Apple Developer account (keep it chmod 600)
          --apns-key-id ID     its 10-character Key ID
          --apns-team-id ID    the 10-character Team ID
          --apns-topic TOPIC   apns-topic: the app's bundle id (default --bundle-id)
          --apns-environment ENV  sandbox (default, development builds) or production
          --apns-url URL       another APNs base URL (a proxy, a test server)
          --apns-ca FILE       also trust this PEM CA (verification always stays on)
          --push-ttl DUR       apns-expiration = fix time (or now) + DUR; retries end then
                               (default 1h)
          --push-queue N       deliveries outstanding before reading waits (default 10000)
          --webhook URL        POST each event line as application/json (repeatable)
          --webhook-header H   'Name: value' sent with each webhook request (repeatable)
          --webhook-ttl DUR    retry a webhook line until DUR after its notification was
                               decided (wall clock, so replays of old fixes arrive too;
                               default 24h)
        """

    static func options(
        from args: ArgumentScanner, bundleID: String?, verbose: Bool, command: String,
        warn: (String) -> Void
    ) throws(CommandFailure) -> DeliveryOptions {
        var options = DeliveryOptions()
        options.verbose = verbose
        options.timeToLive = try args.timeSpan("push-ttl", default: .oneHour).seconds
        options.webhookTimeToLive = try args.timeSpan("webhook-ttl", default: TimeSpan(seconds: 86_400)).seconds
        options.queueCapacity = try args.integer("push-queue", default: options.queueCapacity, minimum: 1)
        for url in args.values("webhook") {
            guard url.hasPrefix("http://") || url.hasPrefix("https://") else {
                throw .usage("\(command): --webhook takes an http:// or https:// URL")
            }
            options.webhooks.append(url)
        }
        for line in args.values("webhook-header") {
            // The value may be a secret: the message never repeats it.
            guard let header = WebhookRequest.parseHeader(line) else {
                throw .usage("\(command): --webhook-header takes 'Name: value' (a header name, a colon, a value without line breaks)")
            }
            options.webhookHeaders.append(header.name + ": " + header.value)
        }
        if !options.webhookHeaders.isEmpty && options.webhooks.isEmpty {
            throw .usage("\(command): --webhook-header needs --webhook URL")
        }
        let apnsNames = ["apns-key", "apns-key-id", "apns-team-id", "apns-topic", "apns-environment", "apns-url", "apns-ca"]
        guard let push = args.value("push") else {
            if let given = apnsNames.first(where: { args.value($0) != nil }) {
                throw .usage("\(command): --\(given) needs --push apns")
            }
            if let path = args.value("apns-ca") { options.extraCAPEM = try readFile(path, option: "apns-ca", command: command) }
            return options
        }
        guard push == "apns" else { throw .usage("\(command): --push takes 'apns', not \(TerminalText.singleQuoted(push))") }
        guard let keyPath = args.value("apns-key") else { throw .usage("\(command): --push apns needs --apns-key FILE (the .p8 key)") }
        guard let keyID = args.value("apns-key-id") else { throw .usage("\(command): --push apns needs --apns-key-id ID") }
        guard let teamID = args.value("apns-team-id") else { throw .usage("\(command): --push apns needs --apns-team-id ID") }
        guard APNsOptions.isAppleIdentifier(keyID) else {
            throw .usage("\(command): --apns-key-id must be 10 letters or digits (the Key ID of the .p8 key)")
        }
        guard APNsOptions.isAppleIdentifier(teamID) else {
            throw .usage("\(command): --apns-team-id must be 10 letters or digits (the Team ID)")
        }
        guard let topic = args.value("apns-topic") ?? bundleID else {
            throw .usage("\(command): --push apns needs --apns-topic (the app's bundle id) or --bundle-id")
        }
        guard !topic.isEmpty, !topic.utf8.contains(where: { $0 < 0x21 || $0 == 0x7F }) else {
            throw .usage("\(command): --apns-topic must be a bundle id without spaces or control characters")
        }
        let endpoint: APNsEndpoint
        if let url = args.value("apns-url") {
            guard args.value("apns-environment") == nil else { throw .usage("\(command): give --apns-url or --apns-environment, not both") }
            guard url.hasPrefix("https://"), url.count > 8, !url.utf8.contains(where: { $0 < 0x21 || $0 == 0x7F }) else {
                throw .usage("\(command): --apns-url takes an https:// URL (APNs speaks HTTP/2 over TLS only)")
            }
            endpoint = APNsEndpoint(baseURL: url, topic: topic)
        } else {
            let name = args.value("apns-environment") ?? "sandbox"
            guard let environment = APNsEndpoint.Environment(rawValue: name) else {
                throw .usage("\(command): --apns-environment takes sandbox or production, not \(TerminalText.singleQuoted(name))")
            }
            endpoint = APNsEndpoint(environment: environment, topic: topic)
        }
        let pem = try readFile(keyPath, option: "apns-key", command: command)
        if let warning = permissionWarning(keyPath, option: "apns-key") { warn("\(command): warning: \(warning)") }
        options.apns = APNsOptions(keyPEM: pem, keySource: "--apns-key \(keyPath)", keyID: keyID, teamID: teamID, endpoint: endpoint)
        if let path = args.value("apns-ca") {
            options.extraCAPEM = try readFile(path, option: "apns-ca", command: command)
            options.extraCASource = "--apns-ca \(path)"
        }
        return options
    }

    private static func readFile(_ path: String, option: String, command: String) throws(CommandFailure) -> [UInt8] {
        guard FileManager.default.fileExists(atPath: path) else {
            throw CommandFailure(.missingInput, "\(command): --\(option) \(path): no such file")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CommandFailure(.io, "\(command): --\(option) \(path): cannot be read")
        }
        return Array(data)
    }

    /// A key file that group or others may read is a leaked key waiting to happen.
    static func permissionWarning(_ path: String, option: String) -> String? {
        var status = stat()
        guard stat(path, &status) == 0, status.st_mode & 0o077 != 0 else { return nil }
        let mode = String(status.st_mode & 0o777, radix: 8)
        return "--\(option) \(path) is readable by group or others (mode \(mode)); chmod 600 it"
    }
}
