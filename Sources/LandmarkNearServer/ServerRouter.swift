@_spi(Inlining) import LandmarkNearCore
import Synchronization

/// The endpoints of docs/reference/serve.md, called on the HTTP threads: it authenticates, decodes each
/// client's request shape into fix records, names the devices and hands the records to the
/// engine queue; the engine thread answers the client once they are processed (and saved).
/// No HTTP thread waits for the engine meanwhile.
///
/// | endpoint | answer |
/// |---|---|
/// | `POST /owntracks` | 200 `[]` |
/// | `GET`/`POST /osmand` | 200 |
/// | `POST /fixes` | 200 `{"accepted":N,"rejected":[{"line":K,"reason":"..."}]}`, 400 when none is good |
/// | `GET /healthz` | 200 `ok`; 503 with the reason while the MQTT broker or the NATS stream cannot be used |
/// | `GET /metrics` | 200, Prometheus text (with users, for any of them unless `metricsPublic`) |
/// | `/landmarks`, `/profiles/DEVICE`, `/devices/DEVICE` | `ServerRouter+Admin.swift` |
package final class ServerRouter: Sendable {
    let queue: EngineQueue
    let authenticator: BasicAuthenticator?
    /// `--metrics-public`: `/metrics` answers without credentials even with users.
    private let metricsPublic: Bool
    package let metrics: ServerMetrics
    let draining = Atomic<Bool>(false)
    let inFlight = Atomic<Int>(0)

    package static let realm = "landmark-near"

    package init(queue: EngineQueue, authenticator: BasicAuthenticator?, metrics: ServerMetrics, metricsPublic: Bool = false) {
        self.queue = queue
        self.authenticator = authenticator
        self.metrics = metrics
        self.metricsPublic = metricsPublic
    }

    /// Fix requests received and not yet answered.
    package var requestsInFlight: Int { inFlight.load(ordering: .acquiring) }

    /// From now on fix requests are answered 503 (the server is stopping).
    package func beginDraining() { draining.store(true, ordering: .releasing) }

    /// Answers `request` through `responder`: at once, or, for fixes, from the engine thread.
    package func respond(to request: HTTPRequest, _ responder: HTTPResponder) {
        let metrics = metrics
        let answer = Answer { response in
            metrics.count(status: response.status)
            responder.respond(response)
        }
        let method = request.method
        switch request.path {
        case "/healthz":
            guard method == "GET" || method == "HEAD" else { return answer(notAllowed("GET, HEAD")) }
            // With --mqtt, a broker that cannot be used makes the service unhealthy: fixes
            // from MQTT do not arrive.
            if let problem = metrics.mqtt?.problem { return answer(.text(503, "mqtt: \(problem)\n")) }
            if let problem = metrics.nats?.problem { return answer(.text(503, "nats: \(problem)\n")) }
            answer(.text(200, "ok\n"))
        case "/metrics":
            guard method == "GET" || method == "HEAD" else { return answer(notAllowed("GET, HEAD")) }
            // The counters tell who is busy and how much: with users, only they may read them.
            if let authenticator, !metricsPublic, case .denied = authenticator.authenticate(request.header("Authorization")) {
                return answer(authenticationRequired())
            }
            answer(HTTPResponse(status: 200, contentType: "text/plain; version=0.0.4; charset=utf-8", body: Array(metrics.render().utf8)))
        case "/owntracks":
            guard method == "POST" else { return answer(notAllowed("POST")) }
            handleFixes(request, answer, owntracks)
        case "/osmand", "/":
            // Traccar Client posts to the server URL as configured; "/" is the OsmAnd port's root.
            guard method == "GET" || method == "POST" else { return answer(notAllowed("GET, POST")) }
            handleFixes(request, answer, osmand)
        case "/fixes":
            guard method == "POST" else { return answer(notAllowed("POST")) }
            handleFixes(request, answer, fixes)
        default:
            // The admin endpoints: /landmarks..., /profiles/DEVICE, /devices/DEVICE.
            if let route = AdminRoute(path: request.path) { return handleAdmin(route, request, answer) }
            answer(.problem(404, "no such endpoint (try /owntracks, /osmand, /fixes, /healthz, /metrics, /landmarks)"))
        }
    }

    func authenticationRequired() -> HTTPResponse {
        HTTPResponse.problem(401, "authentication required (HTTP basic auth with a user of --users)")
            .adding(header: "WWW-Authenticate", "Basic realm=\"\(Self.realm)\", charset=\"UTF-8\"")
    }

    func notAllowed(_ allowed: String) -> HTTPResponse {
        HTTPResponse.problem(405, "method not allowed here").adding(header: "Allow", allowed)
    }

    /// A fix endpoint: counted in flight from here until its answer is given (the engine's, or
    /// one of the refusals here), so that a stopping server can wait for every accepted request.
    private func handleFixes(
        _ request: HTTPRequest, _ answer: Answer,
        _ handler: (HTTPRequest, ServerUsers.User?) -> Reply
    ) {
        inFlight.add(1, ordering: .acquiringAndReleasing)
        let done = Answer { [self] response in
            answer(response)
            inFlight.subtract(1, ordering: .acquiringAndReleasing)
        }
        if draining.load(ordering: .acquiring) { return done(shuttingDown()) }
        var user: ServerUsers.User?
        if let authenticator {
            switch authenticator.authenticate(request.header("Authorization")) {
            case .denied: return done(authenticationRequired())
            case .user(let known): user = known
            }
        }
        switch handler(request, user) {
        case .now(let response): done(response)
        case .engine(let records, let source, let fixesOnly, let build):
            let job = EngineJob(.records(records, source: source)) { outcome in
                switch outcome {
                case .failed(let reason):
                    done(.problem(503, reason))
                case .answered(let response):  // an admin job's kinds: not given to records
                    done(response)
                case .listing(let listing):
                    listing.respond { done($0) }
                case .processed(let count):
                    // A body with no good record is a 400 naming the first bad one. One with some
                    // is a 200: its bad records are counted and reported as in a stream, and a
                    // phone that resent its whole queue for one bad message would resend it for ever.
                    let hasFix = records.contains { if case .fix = $0 { true } else { false } }
                    if !fixesOnly, !hasFix,
                        case .invalid(let issue)? = records.first(where: { if case .invalid = $0 { true } else { false } })
                    {
                        return done(.problem(400, "record \(issue.line): \(issue.reason)"))
                    }
                    done(build(count))
                }
            }
            if !queue.submit(job) { done(shuttingDown()) }
        }
    }

    /// What an endpoint decided on the HTTP thread: an answer now, or records for the engine
    /// and how to answer once it has processed them.
    private enum Reply {
        case now(HTTPResponse)
        case engine([FixRecord], source: String, fixesOnly: Bool, answer: @Sendable (Int) -> HTTPResponse)
    }

    /// Gives one answer (a closure, callable from any thread).
    struct Answer: Sendable {
        let give: @Sendable (HTTPResponse) -> Void
        init(_ give: @escaping @Sendable (HTTPResponse) -> Void) { self.give = give }
        func callAsFunction(_ response: HTTPResponse) { give(response) }
    }

    func shuttingDown() -> HTTPResponse {
        HTTPResponse.problem(503, "the server is shutting down").adding(header: "Connection", "close")
    }

    // MARK: endpoints

    private func owntracks(_ request: HTTPRequest, _ user: ServerUsers.User?) -> Reply {
        var records: [FixRecord]
        switch OwnTracksDecoder.decode(request.body) {
        case .failure(let problem): return unreadable(problem, source: OwnTracksDecoder.source)
        case .success(let decoded): records = decoded
        }
        let headerUser = request.header("X-Limit-U").flatMap { $0.isEmpty ? nil : $0 }
        let headerDevice = request.header("X-Limit-D").flatMap { $0.isEmpty ? nil : $0 }
        if let user, let headerUser, headerUser != user.name {
            return .now(.problem(403, "X-Limit-U names another user than the authenticated one"))
        }
        for index in records.indices {
            guard case .fix(var fix, let line) = records[index] else { continue }
            let device = headerDevice ?? fix.device
            if let user {
                switch name(device, of: user) {
                case .failure(let problem): return .now(problem.response)
                case .success(let named): fix.device = named
                }
            } else if let headerUser {
                fix.device = headerUser + "/" + device
            } else {
                fix.device = device
            }
            records[index] = .fix(fix, line: line)
        }
        return .engine(records, source: OwnTracksDecoder.source, fixesOnly: false) { _ in .json(200, "[]") }
    }

    private func osmand(_ request: HTTPRequest, _ user: ServerUsers.User?) -> Reply {
        var records: [FixRecord]
        switch OsmAndDecoder.decode(query: request.query, body: request.body, contentType: request.header("Content-Type")) {
        case .failure(let problem): return unreadable(problem, source: OsmAndDecoder.source)
        case .success(let decoded): records = decoded
        }
        if let problem = scope(&records, to: user) { return .now(problem.response) }
        return .engine(records, source: OsmAndDecoder.source, fixesOnly: false) { _ in .text(200, "") }
    }

    private func fixes(_ request: HTTPRequest, _ user: ServerUsers.User?) -> Reply {
        var records = FixesBodyDecoder.decode(request.body)
        if let problem = scope(&records, to: user) { return .now(problem.response) }
        var accepted = 0
        var rejected = "["
        // Not `rejected.count`: a String counts its characters, and counting the list once a
        // rejected line made a body of bad lines quadratic.
        var listed = 0
        for record in records {
            switch record {
            case .fix: accepted += 1
            case .invalid(let issue):
                if listed > 0 { rejected += "," }
                listed += 1
                rejected += "{\"line\":\(issue.line),\"reason\":"
                JSONWriter.appendString(issue.reason, to: &rejected)
                rejected += "}"
            }
        }
        let body = "{\"accepted\":\(accepted),\"rejected\":\(rejected)]}\n"
        if accepted == 0 {
            // Nothing to process, but unreadable lines still count and go to stderr (before the answer).
            if records.isEmpty { return .now(.json(400, body)) }
            return .engine(records, source: FixesBodyDecoder.source, fixesOnly: true) { _ in .json(400, body) }
        }
        return .engine(records, source: FixesBodyDecoder.source, fixesOnly: true) { _ in .json(200, body) }
    }

    // MARK: helpers

    /// A body that could not be read at all (400): through the engine as one unreadable record,
    /// so that it is a stderr line and counted in `landmark_near_unreadable_records_total` as
    /// a bad line of `/fixes` is; the answer is still the 400 naming it. Other refusals (413,
    /// 415, ...) are about the request, not a record, and are answered at once.
    private func unreadable(_ problem: RequestProblem, source: String) -> Reply {
        guard problem.status == 400 else { return .now(problem.response) }
        let record = FixRecord.invalid(FixReadIssue(source: source, line: 1, reason: problem.reason))
        return .engine([record], source: source, fixesOnly: true) { _ in problem.response }
    }

    /// `USER/DEVICE` for a device the user owns.
    private func name(_ device: String, of user: ServerUsers.User) -> Result<String, RequestProblem> {
        guard user.owns(device) else {
            return .failure(RequestProblem(403, "user \(JSONWriter.quoted(user.name)) has no device \(JSONWriter.quoted(device))"))
        }
        return .success(user.name + "/" + device)
    }

    /// With users, every fix's device becomes `USER/DEVICE`; one device the user does not own
    /// refuses the whole request (nothing of it is processed).
    private func scope(_ records: inout [FixRecord], to user: ServerUsers.User?) -> RequestProblem? {
        guard let user else { return nil }
        for index in records.indices {
            guard case .fix(var fix, let line) = records[index] else { continue }
            switch name(fix.device, of: user) {
            case .failure(let problem): return problem
            case .success(let named): fix.device = named
            }
            records[index] = .fix(fix, line: line)
        }
        return nil
    }
}
