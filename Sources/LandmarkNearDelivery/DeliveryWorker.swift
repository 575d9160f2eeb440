@_spi(Inlining) import LandmarkNearCore

/// The delivery thread's loop: takes jobs from the `DeliveryQueue`, sends them through one
/// `CurlTransport` (HTTP/2 streams, up to `maximumInFlight` at once), applies docs/reference/delivery.md's rules
/// to the answers, retries with `Backoff`, retires tokens, records every outcome in the ledger
/// and counts it. Lives and dies on its own thread; nothing here is shared.
final class DeliveryWorker {
    private struct Pending {
        var job: DeliveryJob
        var attempts = 0
        /// Monotonic time of the next try.
        var dueAt = 0.0
        /// The provider token generation the last try used.
        var usedTokenGeneration = 0
        var renewals = 0
        var lastReason = ""
    }

    private let queue: DeliveryQueue
    private let options: DeliveryOptions
    private let log: DeliveryLog
    private let transport: CurlTransport
    private let providerToken: ProviderToken?
    private var retiredTokens: Set<String>
    /// Ids outstanding or delivered in this run: a job added twice (resent from the ledger and
    /// decided again) goes out once.
    private var knownIDs: Set<String> = []
    private var ready: [Pending] = []
    private var scheduled: [Pending] = []
    private var inFlight: [Int: Pending] = [:]
    /// Tokens with a request in flight: one at a time per token, so that no request goes to a
    /// token after APNs has retired it, and a device gets its notifications in order.
    private var busyTokens: Set<String> = []
    private var nextTag = 0
    private var random = SystemRandomNumberGenerator()
    private var ledgerFailed = false
    /// Outcomes not yet written to the ledger (one transaction per round of answers).
    private var unrecorded: [DeliveryReport] = []

    init(queue: DeliveryQueue, options: DeliveryOptions, retiredTokens: Set<String>, log: DeliveryLog) throws(DeliveryError) {
        self.queue = queue
        self.options = options
        self.log = log
        self.retiredTokens = retiredTokens
        let trusted = try options.extraCAPEM.map { pem throws(DeliveryError) in
            try TrustedCertificates(pem: pem, source: options.extraCASource)
        }
        transport = try CurlTransport(trusted: trusted, maximumStreams: options.maximumInFlight)
        if let apns = options.apns {
            let key = try APNsSigningKey(pem: apns.keyPEM, source: apns.keySource)
            providerToken = ProviderToken(key: key, keyID: apns.keyID, teamID: apns.teamID)
        } else {
            providerToken = nil
        }
    }

    func run() {
        while true {
            queue.wake.drain()
            let (jobs, closed, stop) = queue.take()
            for job in jobs { accept(job) }
            if stop {
                recordOutcomes()
                let left = ready.count + scheduled.count + inFlight.count
                queue.update { $0.abandoned += left }
                return
            }
            let now = DeliveryClock.monotonicSeconds()
            if !scheduled.isEmpty {
                var stillWaiting: [Pending] = []
                for pending in scheduled {
                    if pending.dueAt <= now { ready.append(pending) } else { stillWaiting.append(pending) }
                }
                scheduled = stillWaiting
            }
            if !ready.isEmpty && inFlight.count < options.maximumInFlight {
                var waiting: [Pending] = []
                for pending in ready {
                    if inFlight.count >= options.maximumInFlight {
                        waiting.append(pending)
                    } else if case .apns(let token) = pending.job.target, busyTokens.contains(token) {
                        waiting.append(pending)
                    } else {
                        start(pending)
                    }
                }
                ready = waiting
            }
            if closed && ready.isEmpty && scheduled.isEmpty && inFlight.isEmpty {
                recordOutcomes()
                return
            }
            var timeout = 1.0
            if let soonest = scheduled.map(\.dueAt).min() { timeout = min(timeout, max(0, soonest - now)) }
            for (tag, result) in transport.perform(timeout: timeout, wakeDescriptor: queue.wake.readDescriptor) {
                guard let pending = inFlight.removeValue(forKey: tag) else { continue }
                if case .apns(let token) = pending.job.target { busyTokens.remove(token) }
                handle(result, for: pending)
            }
            recordOutcomes()
        }
    }

    /// Writes the outcomes of this round to the ledger: a 200 is marked delivered before the
    /// next request goes out.
    private func recordOutcomes() {
        guard let ledger = options.ledger, !unrecorded.isEmpty else { return }
        do {
            try ledger.record(unrecorded)
        } catch {
            if !ledgerFailed { log.write("\(log.prefix): \(error.description)") }
            ledgerFailed = true
        }
        unrecorded.removeAll(keepingCapacity: true)
    }

    private func accept(_ job: DeliveryJob) {
        guard knownIDs.insert(job.id).inserted else {
            queue.finished()
            return
        }
        if case .apns(let token) = job.target, retiredTokens.contains(token) {
            skip(Pending(job: job))
            return
        }
        ready.append(Pending(job: job))
    }

    private func start(_ pending: Pending) {
        var pending = pending
        let request: OutgoingRequest
        switch pending.job.target {
        case .apns(let token):
            // Jobs queued before their token was retired are not sent.
            if retiredTokens.contains(token) {
                skip(pending)
                return
            }
            guard let providerToken, let apns = options.apns else {
                final(pending, .failed(reason: "no APNs key configured"), status: nil)
                return
            }
            let jwt: String
            do {
                jwt = try providerToken.current(now: Int64(DeliveryClock.epochSeconds()))
            } catch {
                final(pending, .failed(reason: error.description), status: nil)
                return
            }
            pending.usedTokenGeneration = providerToken.generation
            let apnsRequest = APNsRequest(job: pending.job, token: token, endpoint: apns.endpoint, providerToken: jwt)
            request = OutgoingRequest(url: apnsRequest.url, headers: apnsRequest.headers, body: apnsRequest.body, requiresHTTP2: true)
        case .webhook(let url):
            let webhook = WebhookRequest(job: pending.job, url: url, extraHeaders: options.webhookHeaders)
            request = OutgoingRequest(url: webhook.url, headers: webhook.headers, body: webhook.body, requiresHTTP2: false)
        }
        pending.attempts += 1
        let tag = nextTag
        nextTag += 1
        if transport.start(request, tag: tag) {
            inFlight[tag] = pending
            if case .apns(let token) = pending.job.target { busyTokens.insert(token) }
        } else {
            retryLater(pending, reason: "libcurl could not start the request", status: nil)
        }
    }

    private func handle(_ result: HTTPResult, for pending: Pending) {
        switch (result, pending.job.target) {
        case (.transportError(let reason), _):
            retryLater(pending, reason: reason, status: nil)
        case (.response(let status, let body), .apns(let token)):
            switch APNsAnswer(status: status, reason: APNsAnswer.reason(fromBody: body)) {
            case .delivered:
                final(pending, .delivered, status: status)
            case .retireToken(let reason):
                retiredTokens.insert(token)
                final(pending, .retired(reason: reason), status: status)
            case .renewProviderToken:
                renewAndRetry(pending, status: status)
            case .temporary(let reason):
                retryLater(pending, reason: reason, status: status)
            case .failed(let reason):
                final(pending, .failed(reason: reason), status: status)
            }
        case (.response(let status, _), .webhook):
            switch WebhookAnswer(status: status) {
            case .delivered: final(pending, .delivered, status: status)
            case .temporary(let reason): retryLater(pending, reason: reason, status: status)
            case .failed(let reason): final(pending, .failed(reason: reason), status: status)
            }
        }
    }

    /// 403 ExpiredProviderToken: a new JWT at once (unless another request already renewed it
    /// since this one was sent) and the job sent again now. A token refused twice in a row for
    /// the same job is a clock or key problem: back off like any temporary failure.
    private func renewAndRetry(_ pending: Pending, status: Int) {
        var pending = pending
        let reason = "\(status) ExpiredProviderToken"
        guard pending.renewals < 2, let providerToken else {
            retryLater(pending, reason: reason, status: status)
            return
        }
        if providerToken.generation == pending.usedTokenGeneration {
            do {
                try providerToken.renew(now: Int64(DeliveryClock.epochSeconds()))
            } catch {
                final(pending, .failed(reason: error.description), status: status)
                return
            }
        }
        pending.renewals += 1
        pending.lastReason = reason
        queue.update { $0.retried += 1 }
        report(pending, .retrying(attempt: pending.attempts, delay: 0, reason: reason + ", provider token renewed"), status: status)
        pending.dueAt = 0
        ready.append(pending)
    }

    private func retryLater(_ pending: Pending, reason: String, status: Int?) {
        var pending = pending
        let delay = Backoff.delay(afterAttempt: pending.attempts, using: &random)
        if DeliveryClock.epochSeconds() + delay > Double(pending.job.expiration) {
            let tries = pending.attempts == 1 ? "1 try" : "\(pending.attempts) tries"
            final(pending, .failed(reason: "expired after \(tries), last: \(reason)"), status: status)
            return
        }
        pending.lastReason = reason
        pending.dueAt = DeliveryClock.monotonicSeconds() + delay
        queue.update { $0.retried += 1 }
        report(pending, .retrying(attempt: pending.attempts, delay: delay, reason: reason), status: status)
        scheduled.append(pending)
    }

    private func final(_ pending: Pending, _ outcome: DeliveryOutcome, status: Int?) {
        queue.update { statistics in
            switch outcome {
            case .delivered: statistics.delivered += 1
            case .failed: statistics.failed += 1
            case .retired: statistics.retired += 1
            case .retrying, .skipped: break
            }
        }
        report(pending, outcome, status: status)
        queue.finished()
    }

    /// A job for a retired token: not sent, and recorded as final so that no later run takes
    /// it up again.
    private func skip(_ pending: Pending) {
        queue.update { $0.skipped += 1 }
        report(pending, .skipped(reason: "not sent: token retired earlier"), status: nil)
        queue.finished()
    }

    private func report(_ pending: Pending, _ outcome: DeliveryOutcome, status: Int?) {
        if options.ledger != nil, pending.job.notificationID != nil {
            unrecorded.append(DeliveryReport(job: pending.job, outcome: outcome, httpStatus: status, attempts: pending.attempts))
        }
        switch outcome {
        case .delivered:
            if log.verbose { log.line(pending.job, "delivered" + (pending.attempts > 1 ? " after \(pending.attempts) tries" : "")) }
        case .retrying(let attempt, let delay, let reason):
            let when = delay == 0 ? "now" : "in " + JSONWriter.number((delay * 10).rounded() / 10) + " s"
            log.line(pending.job, "\(reason); try \(attempt + 1) \(when)")
        case .failed(let reason):
            log.line(pending.job, "\(reason), failed")
        case .retired(let reason):
            log.line(pending.job, "\(reason), token retired")
        case .skipped:
            if log.verbose { log.line(pending.job, "not sent, token retired") }
        }
    }
}
