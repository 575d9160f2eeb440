import LandmarkNear

#if canImport(Glibc)
import Glibc
#endif

enum ServeCommand: Command {
    static let name = "serve"
    static let summary = "take fixes from phones over HTTP or MQTT, or from NATS JetStream, and notify as watch does"
    static let help = """
        Usage: landmark-near serve --listen HOST:PORT [--users FILE] [--tls-cert FILE --tls-key FILE]
                                   [watch options]
               landmark-near serve --mqtt URL [--listen HOST:PORT] [MQTT options] [watch options]
               landmark-near serve --nats URL --nats-stream NAME --state FILE [--nats-partitions LIST]
                                   [--listen HOST:PORT] [watch options]

        Runs one engine fed by HTTP, by an MQTT broker, by partitions of a NATS JetStream
        stream, or several: phones post or publish their locations, and every notification is printed (one JSON line on stdout), written and
        delivered (--push apns, --webhook) exactly as `watch` does it.

            landmark-near serve --listen 127.0.0.1:8083
            landmark-near serve --listen 0.0.0.0:8083 --users users.json --apns-dir out/
            landmark-near serve --listen 127.0.0.1:8083 --state s.db --webhook https://hooks.example.com/near
            landmark-near serve --listen 0.0.0.0:8443 --users users.json --tls-cert fullchain.pem --tls-key privkey.pem
            landmark-near serve --mqtt mqtt://127.0.0.1 --state s.db --mqtt-publish 'near/{device}/event'
            landmark-near serve --nats nats://127.0.0.1:4222 --nats-stream LOC --nats-partitions 0,1 --state a.db

        Endpoints:
          POST /owntracks      OwnTracks HTTP mode (a JSON object or array); the device is
                               USER/DEVICE from X-Limit-U/X-Limit-D, else the user and the
                               message's tid. Answer: 200 []
          GET|POST /osmand     Traccar Client: ?id=DEV&lat=..&lon=..&timestamp=..&accuracy=..
                               or its JSON body (device_id, location.coords, location.timestamp).
                               Answer: 200
          POST /fixes          NDJSON fixes as `watch` reads them. Answer: 200
                               {"accepted":N,"rejected":[{"line":K,"reason":"..."}]}; 400 if none
          GET /healthz         200 ok (with --mqtt or --nats: 503 and the reason while the
                               broker or the stream cannot be used)
          GET /metrics         Prometheus text: fixes, notifications, unreadable records,
                               deliveries by status, HTTP answers by status; with --users,
                               for a user's credentials only (unless --metrics-public)
        Changing it while it runs (with --users, for users with "admin": true only: 401/403):
          PUT /landmarks/ID    a GeoJSON Feature (geometry, name, isFavorite, radius, other
                               properties kept), checked as a catalog entry (400
                               {"errors":[...]}); added ones take the next free index
          DELETE /landmarks/ID its index stays empty; devices inside forget it (no exit)
          GET /landmarks[/ID]  the catalog in force (GeoJSON), or one landmark
          PUT|DELETE|GET /profiles/DEVICE
                               a profile object as in --profiles (DEVICE percent-encoded:
                               /profiles/alice%2Fphone)
          GET /devices/DEVICE  {"device","latestFix","inside":[{"index","id","name","since"}]}
          GET /landmarks/ID/inside
                               the devices inside it
                               A change applies from the next fix after its 200; with --state
                               it is kept and applied over the files at each start and SIGHUP.
                               One audit line on stderr per change.
        A 200 means the fixes were processed and their output written (deliveries go on
        beside the engine: a 200 does not wait for APNs or a webhook).

        Options:
          --listen ADDRESS     HOST:PORT to listen on (IPv4, [IPv6] or a host name; port 0 picks a
                               free port, printed on stderr). Without --users only loopback
                               addresses are allowed. Required without --mqtt or --nats; --users,
                               --threads, --max-connections and --idle-timeout need it.
          --users FILE         JSON: {"USER": {"password": "<crypt(3) hash>", "devices": ["phone"]
                               or "*", "admin": true}}. Every fix request then needs HTTP basic
                               auth (401 otherwise, 403 for a device the user does not own) and
                               devices are named USER/DEVICE; admins may change landmarks and
                               profiles. Make hashes with 'landmark-near hash-password'.
          --tls-cert FILE      speak HTTPS (TLS 1.2 and 1.3) with this PEM certificate (then its
                               intermediates); read again on SIGHUP: new connections get the
                               renewed certificate, open ones keep theirs, nothing restarts
          --tls-key FILE       the certificate's private key (PEM, unencrypted; chmod 600)
          --metrics-public     with --users, answer /metrics without credentials
          --threads N          HTTP threads: they accept, parse and decode (default 4); a
                               request waiting for the engine holds none of them
          --max-connections N  connections open at once (default 1024); further ones wait
          --max-connections-per-client N
                               connections open at once from one IP address (default 64);
                               further ones from it are closed at once
          --idle-timeout DUR   close a connection that makes no progress for this long, or
                               whose headers (or body) are not whole after it (default 30s;
                               at least 1s)
        MQTT:
          --mqtt URL           subscribe to a broker with QoS 1:
                               mqtt://[USER[:PASSWORD]@]HOST[:PORT][/TOPIC-FILTER], or mqtts://
                               (TLS); filter default owntracks/+/+. A "_type":"location" message
                               on PREFIX/USER/DEVICE is a fix of device USER/DEVICE; other _types
                               are counted and skipped; a bad message is one stderr line naming
                               the topic, and is counted. A message is acknowledged only once
                               its fixes are committed: with --state a kill or a broker restart
                               loses none. libmosquitto is opened only then
          --mqtt-ca FILE       the CA (PEM) of an mqtts:// broker (default: the system's)
          --mqtt-password-file FILE  the password of the URL's user, on the file's first line
          --mqtt-client-id ID  the persistent session's client id (default: derived from
                               --state, so a restart resumes the session; without --state, a
                               clean session)
          --mqtt-publish TEMPLATE  publish every event line (QoS 1, not retained) on this
                               topic, {device} standing for the device:
                               landmarknear/{device}/event. With --state a notification is
                               done once the broker has its line
          --mqtt-receive-maximum N  unacknowledged messages the broker may send at once
                               (default 4096): the largest batch one commit acknowledges
        See docs/reference/mqtt.md.
        \(NATSOptionsParsing.help)
        As for `watch` (see 'landmark-near watch --help'):
          --landmarks FILE     landmark catalog (default: the tutorial's twelve)
          --favorites LIST     favourite ids for every device, or 'all'
          --profiles FILE      per-device favourites, prefersNotifications, quietHours
          --radius LEN         enter distance (default 5mi)
          --hysteresis LEN     exit beyond radius + this (default 0.25mi)
          --cooldown DUR       no second notification within this span (default 1h)
          --max-accuracy LEN   drop fixes with a worse known accuracy (default 1000m)
          --dwell DUR          notify after DUR inside, as a "dwell" event
          --crossing DUR       enters passed between fixes at most DUR apart ("via":"crossing")
          --accuracy-policy P  center (default), sure or possible
          --events KIND        'notifications' (default) or 'all'
          --apns-dir DIR       also write each notification's payload to DIR as a .apns file
          --thread-id ID       payload thread-id (default 5280)
          --bundle-id ID       add "Simulator Target Bundle" to payloads
          --explain            tell on stderr, for each fix, why it did or did not notify
        \(DeliveryOptionsParsing.help)
          --state FILE         keep device state and the notification log in FILE (SQLite); a
                               200 (an MQTT acknowledgement) means the fixes are saved there
                               too; with --push/--webhook
                               each delivery is recorded (see landmark-near deliveries) and a
                               restart sends what was not delivered
          -h, --help           show this help

        Limits: bodies over 1 MiB get 413; a connection with no progress for 30 s is closed; at
        most 64 connections from one address; bad JSON or bad numbers get 400 with the reason
        (and count as unreadable records).
        Deliveries run on their own thread, with watch's rules (see 'landmark-near watch
        --help': APNs answers, retries until the expiration, retired tokens, the delivery lines
        on stderr); the summary counts delivered, retried, failed and retired.
        Signals: SIGTERM stops accepting (new requests get 503; the MQTT subscription commits
        and acknowledges its last read and disconnects), finishes what was accepted, saves the
        state, waits for the broker's acknowledgements of published lines (10 s at most) and
        for the outstanding deliveries and exits 0; SIGINT does the same
        and exits 130. A second SIGTERM or SIGINT ends the wait for deliveries (exit 143 or 130;
        with --state the next run sends what was left). SIGHUP reloads the landmarks, the
        profiles (with their APNs tokens), the users and the TLS certificate, and applies the
        API's changes over them; every device's state is kept. MQTT connections reconnect with backoff (0.25 s doubling to 30 s), one
        stderr line per change of their state.
        Exit status: 0 stopped by SIGTERM; 130 stopped by SIGINT (or a second SIGINT ended the
        wait for deliveries); 143 a second SIGTERM ended it; 64 usage error; 65 bad users,
        catalog, profiles, certificate or key; 66 a file does not exist; 74 cannot listen or
        write; 75 the --state file is in use by another process; 127 --mqtt without libmosquitto,
        --nats without libnats.
        """

    static func run(_ arguments: [String], output: OutputWriter) throws(CommandFailure) -> ErrorKind? {
        // Before any thread starts (the deliveries', the daemon's): see `blockStopSignals`.
        FixServer.blockStopSignals()
        let command = "landmark-near serve"
        let args = try ArgumentScanner(
            arguments, command: command,
            valued: WatchOptionsParsing.valued.subtracting(["format"]).union(DeliveryOptionsParsing.valued)
                .union([
                    "listen", "users", "threads", "max-connections", "max-connections-per-client", "idle-timeout", "tls-cert", "tls-key",
                ])
                .union(MQTTOptionsParsing.valued).union(NATSOptionsParsing.valued),
            flags: ["explain", "metrics-public"])
        guard args.positionals.isEmpty else {
            throw .usage(
                "\(command): takes no files (fixes come over HTTP, MQTT or NATS): \(TerminalText.singleQuoted(args.positionals[0]))")
        }
        let listen = args.value("listen")
        guard listen != nil || args.value("mqtt") != nil || args.value("nats") != nil else {
            throw .usage(
                "\(command): --listen HOST:PORT, --mqtt URL or --nats URL is required (e.g. --listen 127.0.0.1:8083, --mqtt mqtt://127.0.0.1/owntracks/+/+)"
            )
        }
        let httpOptions = ["users", "threads", "max-connections", "max-connections-per-client", "idle-timeout", "tls-cert", "tls-key"]
        if listen == nil,
            let http = httpOptions.first(where: { args.value($0) != nil }) ?? (args.has("metrics-public") ? "metrics-public" : nil)
        {
            throw .usage("\(command): --\(http) is about HTTP: it needs --listen")
        }
        var configuration: ServeConfiguration
        do throws(ServerError) {
            configuration = ServeConfiguration(address: try listen.map { text throws(ServerError) in try ListenAddress(parsing: text) })
            if let mqtt = try MQTTOptionsParsing.options(from: args) {
                configuration.mqtt = mqtt.options
                configuration.mqttPassword = mqtt.password
            }
            configuration.nats = try NATSOptionsParsing.settings(from: args)
        } catch {
            throw failure(error, command)
        }
        configuration.usersPath = args.value("users")
        configuration.tls = try tls(args, command: command)
        configuration.metricsPublic = args.has("metrics-public")
        configuration.limits.threads = try count(args, "threads", default: 4, command: command)
        configuration.limits.connectionLimit = try count(args, "max-connections", default: 1024, command: command)
        configuration.limits.perClientLimit = try count(args, "max-connections-per-client", default: 64, command: command)
        let idle = try args.timeSpan("idle-timeout", default: TimeSpan(seconds: 30)).seconds
        guard idle >= 1 else {
            throw .usage(
                "\(command): --idle-timeout must be at least 1s (a connection that never times out would let idle clients hold every slot)")
        }
        configuration.limits.timeoutSeconds = Int(idle.rounded(.up))
        var options = try WatchOptionsParsing.options(from: args, command: command)
        // The server flushes once per batch of requests, before it answers them.
        options.flushEachEvent = false
        options.commandName = command
        options.delivery = try DeliveryOptionsParsing.options(
            from: args, bundleID: options.payload.bundleID,
            verbose: options.explain, command: command,
            warn: Console.error)

        let diagnostics = OutputWriter(descriptor: 2)
        let catalog = try args.catalog(command: command)
        let fileProfiles = try WatchOptionsParsing.profiles(from: args, command: command) ?? DeviceProfiles()
        var store: StateStore?
        if let path = args.value("state") {
            do {
                store = try StateStore(path: path)
            } catch {
                throw CommandFailure(error, context: "\(command): --state ")
            }
        }
        let pipeline: Pipeline
        let admin: AdminDesk
        do throws(WatchError) {
            // The changes taken over the API and kept in --state, over the files.
            var overlay = CatalogOverlay()
            if let store { overlay = try CatalogOverlay(store: store) }
            options.engine.profiles = overlay.profiles(over: fileProfiles)
            let inForce: LandmarkCatalog
            do {
                inForce = try overlay.catalog(over: catalog)
            } catch {
                throw WatchError(kind: error.kind, origin: .state, message: error.description)
            }
            pipeline = try Pipeline(catalog: inForce, options: options, output: output, diagnostics: diagnostics, store: store)
            admin = AdminDesk(pipeline: pipeline, files: catalog, profiles: fileProfiles, overlay: overlay)
        } catch {
            throw WatchCommand.failure(error, command: command)
        }
        // SIGHUP: the files again, the API's changes over them, every device's state kept.
        let reload = { (pipeline: Pipeline) throws(ServerError) -> Void in
            do throws(CommandFailure) {
                let catalog = try args.catalog(command: command)
                let profiles = try WatchOptionsParsing.profiles(from: args, command: command) ?? DeviceProfiles()
                do throws(WatchError) {
                    try admin.reload(files: catalog, profiles: profiles)
                } catch {
                    throw WatchCommand.failure(error, command: command)
                }
            } catch {
                throw ServerError(kind: error.kind, message: error.message)
            }
        }
        let outcome: ServeOutcome
        do throws(ServerError) {
            let server = try FixServer(configuration: configuration, pipeline: pipeline, admin: admin, reload: reload)
            outcome = try server.run()
        } catch {
            throw failure(error, command)
        }
        Console.error("\(command): \(summary(of: outcome))")
        if let later = outcome.deliveryWaitInterruptedBy { return later == SIGINT ? .interrupted : .terminated }
        return outcome.signal == SIGINT ? .interrupted : nil
    }

    /// The watch summary, the delivery counts, and how the server stopped:
    /// `... 2 devices; deliveries: 3 delivered, 0 retried, 0 failed, 0 retired (stopped by SIGTERM)`.
    static func summary(of outcome: ServeOutcome) -> String {
        var text = outcome.statistics.summary
        if let mqtt = outcome.mqtt { text += "; " + MQTTOptionsParsing.summary(of: mqtt, unacknowledged: outcome.unacknowledgedPublishes) }
        if let nats = outcome.nats { text += "; " + NATSOptionsParsing.summary(of: nats) }
        if let deliveries = outcome.deliveries { text += "; " + deliveries.summary }
        text += outcome.signal == SIGINT ? " (interrupted by SIGINT)" : " (stopped by SIGTERM)"
        if let later = outcome.deliveryWaitInterruptedBy {
            text += "; \(later == SIGINT ? "SIGINT" : "SIGTERM") ended the wait for deliveries"
        }
        return text
    }

    /// `--tls-cert` and `--tls-key` (both or neither), read and checked now: a file missing is
    /// 66, one GnuTLS refuses (or a key that is not the certificate's) 65.
    private static func tls(_ args: ArgumentScanner, command: String) throws(CommandFailure) -> TLSCertificate? {
        switch (args.value("tls-cert"), args.value("tls-key")) {
        case (nil, nil): return nil
        case (let certificate?, let key?):
            if let warning = DeliveryOptionsParsing.permissionWarning(key, option: "tls-key") {
                Console.error("\(command): warning: \(warning)")
            }
            do throws(ServerError) {
                return try TLSCertificate(certificatePath: certificate, keyPath: key)
            } catch {
                throw failure(error, command)
            }
        case (nil, _?): throw .usage("\(command): --tls-key needs --tls-cert (the certificate it goes with)")
        case (_?, nil): throw .usage("\(command): --tls-cert needs --tls-key (the certificate's private key)")
        }
    }

    private static func count(_ args: ArgumentScanner, _ name: String, default value: Int, command: String) throws(CommandFailure) -> Int {
        guard let text = args.value(name) else { return value }
        guard let number = Int(text), number >= 1, number <= 100_000 else {
            throw .usage("\(command): --\(name) takes a whole number from 1 to 100000, not \(TerminalText.singleQuoted(text))")
        }
        return number
    }

    /// The server's error with the option it concerns (errors already worded by the
    /// command, from the catalog or the pipeline, start with its name).
    private static func failure(_ error: ServerError, _ command: String) -> CommandFailure {
        if error.message.hasPrefix(command) { return CommandFailure(error.kind, error.message) }
        let option = error.setting.map { "--\($0.rawValue) " } ?? ""
        return CommandFailure(error, context: "\(command): \(option)")
    }
}
