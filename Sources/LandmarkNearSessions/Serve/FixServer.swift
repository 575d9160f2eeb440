import Dispatch
@_spi(Inlining) import LandmarkNearCore
import LandmarkNearDelivery
import LandmarkNearOutputs
import LandmarkNearServer
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// What `serve` is told besides the watch options: where fixes come from (HTTP, an MQTT
/// broker, or both).
package struct ServeConfiguration: Sendable {
    /// `--listen`; nil: no HTTP at all (MQTT only).
    package var address: ListenAddress?
    package var limits = HTTPDaemonLimits()
    /// `--users FILE`; without it only loopback addresses are allowed.
    package var usersPath: String?
    /// `--mqtt URL` and its options; nil: no MQTT.
    package var mqtt: MQTTOptions?
    /// The broker password, from the URL or `--mqtt-password-file`.
    package var mqttPassword: String?
    /// `--nats URL --nats-stream NAME [--nats-partitions LIST]`; nil: no NATS.
    package var nats: NATSSettings?
    /// `--tls-cert` and `--tls-key`, read already: the daemon speaks TLS only, and SIGHUP reads
    /// the pair again.
    package var tls: TLSCertificate?
    /// `--metrics-public`: `/metrics` without credentials even with users.
    package var metricsPublic = false

    package init(address: ListenAddress?) { self.address = address }
}

/// How a serve run ended.
package struct ServeOutcome: Sendable {
    package var statistics: WatchStatistics
    /// The signal that stopped it (SIGTERM, SIGINT).
    package var signal: Int32
    /// With `--push`/`--webhook`: the delivery counts once the outstanding deliveries were
    /// waited for.
    package var deliveries: DeliveryStatistics?
    /// The later signal that ended the wait for deliveries (what was left is not delivered; with
    /// `--state` the next run sends it).
    package var deliveryWaitInterruptedBy: Int32?
    /// With `--mqtt`: what came from the broker and what was published.
    package var mqtt: MQTTStatus.Counts?
    /// With `--nats`: what came from the stream.
    package var nats: NATSStatus.Counts?
    /// Event lines the broker had not acknowledged when `serve` stopped (`--mqtt-publish`).
    package var unacknowledgedPublishes = 0
}

/// `landmark-near serve`: one engine (a `Pipeline`, so every watch option means the same)
/// fed by HTTP and by an MQTT broker. The libmicrohttpd threads decode requests and queue their
/// records (the requests then wait suspended, holding no thread); the MQTT network thread
/// queues what each read of the broker's socket brought and waits; the calling thread is the
/// engine thread: it drains the queue through the pipeline's run loop (`QueueSource`), which
/// takes the queue's batches in arrival order, runs each record through the engine, commits
/// and flushes once a batch, and only then answers the batch's requests and lets the MQTT
/// thread acknowledge its messages (docs/reference/mqtt.md). With `--mqtt-publish`, every
/// event line is published after its commit, over a connection of its own.
///
/// With a state store (`--state`), the pipeline first emits what an earlier run decided and did
/// not mark done, commits each batch to the store before the requests are answered (so a 200
/// means saved too), and finishes (the last done marks) when the server stops.
///
/// SIGTERM (or SIGINT): new requests get 503, the requests being handled finish, the daemon
/// stops, the MQTT subscription's last batch is committed and acknowledged and it disconnects
/// (the broker keeps the session), the engine processes what was accepted, the broker's
/// acknowledgements of published lines are waited for (at most 10 s), and then, with
/// deliveries (`--push`, `--webhook`), the outstanding ones are waited for (each until delivered or expired; another
/// SIGTERM or SIGINT ends the wait), and `run` returns. SIGHUP: the users file
/// is read again, and `reload` is called on the engine thread (landmarks and profiles read
/// again; the pipeline keeps every device's state).
///
///     let admin = AdminDesk(pipeline: pipeline, files: catalog, profiles: profiles, overlay: overlay)
///     let server = try FixServer(configuration: configuration, pipeline: pipeline, admin: admin) { _ in
///         try admin.reload(files: CatalogLoader.load(path: path), profiles: profiles)
///     }
///     let outcome = try server.run()
package final class FixServer {
    private let configuration: ServeConfiguration
    private let reload: (Pipeline) throws(ServerError) -> Void
    private let pipeline: Pipeline
    private let admin: AdminDesk

    /// `admin` answers the admin endpoints on the engine thread (made over the same pipeline).
    package init(
        configuration: ServeConfiguration, pipeline: Pipeline, admin: AdminDesk,
        reload: @escaping (Pipeline) throws(ServerError) -> Void
    ) throws(ServerError) {
        if let address = configuration.address, configuration.usersPath == nil, !address.isLoopback {
            throw .usage(
                "\(TerminalText.safe(address.text)) is not a loopback address: without users (and their passwords) only 127.0.0.1 or ::1 are allowed",
                .listen)
        }
        self.configuration = configuration
        self.pipeline = pipeline
        self.admin = admin
        self.reload = reload
    }

    /// Blocks SIGTERM, SIGINT and SIGHUP in the calling thread, so that the threads started
    /// after (the daemon's, the deliveries') inherit the mask. Under SIG_IGN a signal the kernel
    /// hands to a thread that has it unblocked is discarded, and the server never hears it: seen
    /// under load, a SIGTERM that `serve` ignored while a client held a kept-alive connection.
    /// Blocked everywhere, it waits for the signal sources. Call it before any thread starts.
    package static func blockStopSignals() {
        var blocked = sigset_t()
        sigemptyset(&blocked)
        for number in [SIGTERM, SIGINT, SIGHUP] { sigaddset(&blocked, number) }
        pthread_sigmask(SIG_BLOCK, &blocked, nil)
    }

    package func run() throws(ServerError) -> ServeOutcome {
        FixServer.blockStopSignals()
        let authenticator = try configuration.usersPath.map { path throws(ServerError) in
            BasicAuthenticator(users: try ServerUsers.load(path: path))
        }
        let queue = EngineQueue()
        let mqttStatus = configuration.mqtt.map { _ in MQTTStatus() }
        let natsStatus = configuration.nats.map { _ in NATSStatus() }
        let metrics = ServerMetrics(deliveries: pipeline.deliveryStatisticsReader, mqtt: mqttStatus, nats: natsStatus)
        let router = ServerRouter(queue: queue, authenticator: authenticator, metrics: metrics, metricsPublic: configuration.metricsPublic)
        let daemon = try configuration.address.map { address throws(ServerError) in
            try HTTPDaemon(
                address: address, limits: configuration.limits, tls: configuration.tls,
                refused: { metrics.count(status: $0.status) },
                handler: { request, responder in router.respond(to: request, responder) })
        }
        // The publisher before the engine's first commit (resume() publishes what an earlier
        // run left undone), the subscription last: its fixes wait in the queue until drain.
        let publisher = try makePublisher(status: mqttStatus)
        pipeline.eventPublisher = publisher
        let receiver = try configuration.mqtt.map { options throws(ServerError) in
            try MQTTReceiver(options: options, password: configuration.mqttPassword, queue: queue, status: mqttStatus!)
        }
        // The partitions are read from where the state says they were committed.
        let natsReceiver = try configuration.nats.map { settings throws(ServerError) in
            let positions: [Int: StreamPosition]
            do throws(WatchError) {
                positions = try pipeline.streamPositions(stream: settings.stream)
            } catch {
                throw ServerError(kind: error.kind, message: error.description)
            }
            return NATSReceiver(settings: settings, positions: positions, queue: queue, status: natsStatus!)
        }
        let stopSignal = Atomic<Int32>(0)
        // Signals after the one that stopped the server (they end the waits for the broker and
        // for deliveries).
        let laterSignal = Atomic<Int32>(0)
        let stopper = Stopper(daemon: daemon, receiver: receiver, natsReceiver: natsReceiver, router: router, queue: queue)
        var sources: [DispatchSourceSignal] = []
        for number in [SIGTERM, SIGINT] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                guard stopSignal.compareExchange(expected: 0, desired: number, ordering: .acquiringAndReleasing).exchanged else {
                    laterSignal.store(number, ordering: .releasing)
                    return
                }
                stopper.stop()
            }
            source.resume()
            sources.append(source)
        }
        signal(SIGHUP, SIG_IGN)
        let hangUp = DispatchSource.makeSignalSource(signal: SIGHUP, queue: .global())
        let usersPath = configuration.usersPath
        let tls = configuration.tls
        hangUp.setEventHandler {
            if let tls {
                do throws(ServerError) {
                    try tls.reload()
                    standardError("landmark-near serve: SIGHUP: certificate reloaded from \(tls.certificatePath)")
                } catch {
                    let option = error.setting.map { "--\($0.rawValue) " } ?? ""
                    standardError("landmark-near serve: SIGHUP: keeping the certificate: \(option)\(error.description)")
                }
            }
            if let usersPath, let authenticator {
                do {
                    authenticator.replace(try ServerUsers.load(path: usersPath))
                    standardError("landmark-near serve: SIGHUP: users reloaded from \(usersPath)")
                } catch {
                    standardError("landmark-near serve: SIGHUP: keeping the users: \(TerminalText.safe("\(error)"))")
                }
            }
            _ = queue.submit(EngineJob(.reload))
        }
        hangUp.resume()
        sources.append(hangUp)
        defer { for source in sources { source.cancel() } }

        if let daemon, let address = configuration.address {
            let scheme = (tls == nil ? "http://" : "https://") + (address.isIPv6 ? "[\(address.host)]" : address.host)
            standardError(
                "landmark-near serve: listening on \(scheme):\(daemon.port)"
                    + (usersPath == nil ? " (no --users: loopback only, no authentication)" : ""))
        }

        let answering = DispatchQueue(label: "landmark-near.serve.answers")
        admin.metrics = metrics
        var source = QueueSource(queue: queue, answering: answering, metrics: metrics, admin: admin) {
            if stopSignal.compareExchange(expected: 0, desired: SIGTERM, ordering: .acquiringAndReleasing).exchanged {
                DispatchQueue.global().async { stopper.stop() }
            }
        }
        pipeline.onReload = { [reload] pipeline in FixServer.reload(pipeline, with: reload) }
        // The reload closure holds the admin desk, which holds the pipeline: let go of it when
        // the server stops, or the pipeline (engine, store, writers) would never be freed.
        defer { pipeline.onReload = nil }
        do {
            try pipeline.keepWhereabouts()
            try pipeline.resume()
            admin.publish(force: true)
        } catch {
            source.failure = ServerError(kind: error.kind, message: error.description)
            stopSignal.store(SIGTERM, ordering: .releasing)
            DispatchQueue.global().async { stopper.stop() }
        }
        do {
            try pipeline.drain(&source)
        } catch {
            if source.failure == nil { source.failure = ServerError(kind: error.kind, message: error.description) }
        }
        answering.sync {}
        // Stopped already unless the engine failed: then what it holds is not acknowledged.
        receiver?.abandon()
        natsReceiver?.abandon()
        var outcome = ServeOutcome(statistics: pipeline.statistics, signal: 0)
        do {
            if let publisher {
                // The last batch published, then the broker's acknowledgements waited for, so
                // that finish() marks those notifications done.
                try pipeline.commit()
                if !publisher.waitUntilAcknowledged(seconds: 10, shouldStop: { laterSignal.load(ordering: .acquiring) != 0 }) {
                    outcome.unacknowledgedPublishes = publisher.unacknowledgedNotifications
                }
            }
            try pipeline.finish()
        } catch {
            if source.failure == nil { source.failure = ServerError(kind: error.kind, message: error.description) }
        }
        publisher?.stop()
        // Deliveries run on their own thread; what was decided is saved, now they finish.
        let deliveries = pipeline.finishDeliveries { laterSignal.load(ordering: .acquiring) != 0 }
        if let failure = source.failure { throw failure }
        outcome.statistics = pipeline.statistics
        outcome.signal = stopSignal.load(ordering: .acquiring)
        outcome.deliveries = deliveries?.statistics
        outcome.mqtt = mqttStatus?.counts
        outcome.nats = natsStatus?.counts
        if deliveries?.interrupted == true { outcome.deliveryWaitInterruptedBy = laterSignal.load(ordering: .acquiring) }
        return outcome
    }

    /// `--mqtt-publish`: the publishing connection, started now.
    private func makePublisher(status: MQTTStatus?) throws(ServerError) -> MQTTPublisher? {
        guard let options = configuration.mqtt, let template = options.publishTopic, let status else { return nil }
        return try MQTTPublisher(options: options, template: template, password: configuration.mqttPassword, status: status)
    }

    /// SIGHUP on the engine thread: what was decided is committed, then the files are read again.
    private static func reload(_ pipeline: Pipeline, with reload: (Pipeline) throws(ServerError) -> Void) {
        do {
            try pipeline.commit()
            try reload(pipeline)
            standardError("landmark-near serve: SIGHUP: landmarks and profiles reloaded")
        } catch {
            standardError("landmark-near serve: SIGHUP: keeping the landmarks and profiles: \(TerminalText.safe("\(error)"))")
        }
    }
}

/// The shutdown sequence, run once off the engine thread (which keeps answering meanwhile).
private final class Stopper: Sendable {
    let daemon: HTTPDaemon?
    let receiver: MQTTReceiver?
    let natsReceiver: NATSReceiver?
    let router: ServerRouter
    let queue: EngineQueue

    init(daemon: HTTPDaemon?, receiver: MQTTReceiver?, natsReceiver: NATSReceiver?, router: ServerRouter, queue: EngineQueue) {
        self.daemon = daemon
        self.receiver = receiver
        self.natsReceiver = natsReceiver
        self.router = router
        self.queue = queue
    }

    func stop() {
        router.beginDraining()
        daemon?.stopListening()
        // Requests already being handled get their answers (at most 10 s).
        for _ in 0..<1000 where router.requestsInFlight > 0 { usleep(10_000) }
        daemon?.stop()
        // Before the queue closes: the subscription's last batch still goes to the engine, is
        // committed and acknowledged.
        receiver?.stop()
        natsReceiver?.stop()
        queue.close()
    }
}

/// One line on stderr in one write(2), made safe for a terminal (`TerminalText.safeLines`)
/// whatever the caller quoted.
func standardError(_ line: String) {
    let bytes = Array((TerminalText.safeLines(line) + "\n").utf8)
    _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
}
