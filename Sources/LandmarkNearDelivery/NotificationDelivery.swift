import COpenSSL
import Foundation
@_spi(Inlining) import LandmarkNearCore

/// The engine's side of deliveries: turns each notification into jobs (one per APNs token of
/// its device, one per webhook), hands them to the delivery thread through the bounded
/// `DeliveryQueue` (blocking while it is full), and at the end waits for the outstanding ones.
///
///     let delivery = try NotificationDelivery(options: options, tokens: [DeviceKey("d1"): ["a1b2…"]], logPrefix: "landmark-near watch")
///     delivery.submitNotification(key, payload: payload)       // on the engine thread
///     let statistics = delivery.finish(shouldStop: { signals.received })
package final class NotificationDelivery {
    private let queue: DeliveryQueue
    private let options: DeliveryOptions
    /// APNs tokens by device (`--profiles`; SIGHUP replaces them), keyed by the name's bytes
    /// as the engine's device table is (two spellings of "café" are two devices).
    package var tokens: [DeviceKey: [String]]
    private var stopped = false
    private var submitted: [DeliveryJob] = []
    private let log: DeliveryLog
    /// Jobs an earlier run delivered (from the ledger), skipped when decided again.
    private var deliveredIDs: Set<String> = []

    /// Checks the key and CA here, on the calling thread, so that a bad file is an error before
    /// any fix is read; then starts the delivery thread. Jobs the ledger holds as undelivered
    /// from an earlier run are queued first.
    package init(options: DeliveryOptions, tokens: [DeviceKey: [String]], logPrefix: String) throws(DeliveryError) {
        try CurlTransport.initializeLibrary()
        if let apns = options.apns {
            let key = try APNsSigningKey(pem: apns.keyPEM, source: apns.keySource)
            _ = try ProviderToken(key: key, keyID: apns.keyID, teamID: apns.teamID).renew(now: Int64(DeliveryClock.epochSeconds()))
        }
        if let pem = options.extraCAPEM { _ = try TrustedCertificates(pem: pem, source: options.extraCASource) }
        let retired = try options.ledger?.retiredTokens() ?? []
        let resend = try options.ledger?.undelivered() ?? []
        deliveredIDs = try options.ledger?.deliveredIDs() ?? []
        self.options = options
        self.tokens = tokens
        queue = try DeliveryQueue(capacity: options.queueCapacity)
        let queue = self.queue
        let log = DeliveryLog(prefix: logPrefix, verbose: options.verbose)
        self.log = log
        let thread = Thread {
            do throws(DeliveryError) {
                let worker = try DeliveryWorker(queue: queue, options: options, retiredTokens: retired, log: log)
                worker.run()
            } catch {
                log.write("\(logPrefix): delivery: \(error.description)")
                queue.requestStop()
            }
            // OpenSSL frees a thread's state (its error queue, TLS caches) when the thread
            // exits; the process may exit first, right after `finish`, and leave it half
            // freed. Freed here, before the engine is told that deliveries have ended.
            OPENSSL_thread_stop()
            queue.markEnded()
        }
        thread.name = "deliveries"
        thread.start()
        for job in resend where !stopped {
            stopped = !queue.add(job)
        }
    }

    /// The jobs of one notification: its payload to every token of the device (docs/reference/delivery.md; the
    /// payload without "Simulator Target Bundle"). Blocks while the queue is full.
    package func submitNotification(_ key: NotificationKey, payload: String, notificationID: Int64? = nil) {
        guard options.apns != nil, !stopped, let deviceTokens = tokens[DeviceKey(key.device)] else { return }
        let expiration = expiration(for: key)
        for token in deviceTokens {
            var job = DeliveryJob.apns(notification: key, token: token, payload: payload, expiration: expiration)
            job.notificationID = notificationID
            add(job)
        }
    }

    /// An event line to every webhook. Blocks while the queue is full.
    package func submitLine(_ key: NotificationKey, line: String, notificationID: Int64? = nil) {
        guard !options.webhooks.isEmpty, !stopped else { return }
        // Decided now: the line may be delivered until --webhook-ttl from now, whatever its fix time.
        let expiration = Int64(DeliveryClock.epochSeconds() + options.webhookTimeToLive)
        for url in options.webhooks {
            var job = DeliveryJob.webhook(notification: key, url: url, line: line, expiration: expiration)
            job.notificationID = notificationID
            add(job)
        }
    }

    private func add(_ job: DeliveryJob) {
        // Sent (and delivered) by an earlier run: never again.
        if deliveredIDs.contains(job.id) { return }
        submitted.append(job)
        if submitted.count >= 256 { flushSubmissions() }
    }

    /// Records the submitted jobs as pending (one transaction), then queues them; blocks while
    /// the queue is full. The session calls it after each batch it emits.
    package func flushSubmissions() {
        guard !submitted.isEmpty else { return }
        let jobs = submitted
        submitted.removeAll(keepingCapacity: true)
        do {
            try options.ledger?.record(pending: jobs)
        } catch {
            log.write("\(log.prefix): \(error.description)")
        }
        for job in jobs where !stopped {
            if !queue.add(job) { stopped = true }
        }
    }

    /// Fix time (or now) + time to live, in whole epoch seconds.
    private func expiration(for key: NotificationKey) -> Int64 {
        let base = key.time.map { Double($0.seconds) } ?? DeliveryClock.epochSeconds()
        return Int64(base + options.timeToLive)
    }

    /// Closes the queue and waits for the delivery thread to finish the outstanding jobs (each
    /// bounded by its expiration). `shouldStop` is asked every 100 ms; when it answers true the
    /// wait ends and what is left is counted as left undelivered (the ledger still has it).
    package func finish(shouldStop: () -> Bool) -> (statistics: DeliveryStatistics, interrupted: Bool) {
        flushSubmissions()
        queue.close()
        var interrupted = false
        while !queue.waitForEnd(seconds: 0.1) {
            if !interrupted && shouldStop() {
                interrupted = true
                queue.requestStop()
            }
        }
        return (queue.statistics, interrupted)
    }

    /// Counts so far (the delivery thread keeps changing them until `finish`).
    package var statistics: DeliveryStatistics { queue.statistics }

    /// The same counts, read from any thread (the HTTP server's `/metrics`).
    package var statisticsReader: @Sendable () -> DeliveryStatistics {
        let queue = queue
        return { queue.statistics }
    }
}
