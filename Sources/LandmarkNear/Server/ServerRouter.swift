import Synchronization

/// The endpoints of SPEC 11, called on the HTTP threads: it authenticates, decodes each
/// client's request shape into fix records, names the devices, hands the records to the engine
/// queue and waits for the engine's answer before it answers the client.
///
/// | endpoint | answer |
/// |---|---|
/// | `POST /owntracks` | 200 `[]` |
/// | `GET`/`POST /osmand` | 200 |
/// | `POST /fixes` | 200 `{"accepted":N,"rejected":[{"line":K,"reason":"..."}]}`, 400 when none is good |
/// | `GET /healthz` | 200 `ok` |
/// | `GET /metrics` | 200, Prometheus text |
package final class ServerRouter: Sendable {
    private let queue: EngineQueue
    private let authenticator: BasicAuthenticator?
    package let metrics: ServerMetrics
    private let draining = Atomic<Bool>(false)
    private let inFlight = Atomic<Int>(0)

    package static let realm = "landmark-near"

    package init(queue: EngineQueue, authenticator: BasicAuthenticator?, metrics: ServerMetrics) {
        self.queue = queue
        self.authenticator = authenticator
        self.metrics = metrics
    }

    /// Fix requests being handled now.
    package var requestsInFlight: Int { inFlight.load(ordering: .acquiring) }

    /// From now on fix requests are answered 503 (the server is stopping).
    package func beginDraining() { draining.store(true, ordering: .releasing) }

    package func respond(to request: HTTPRequest) -> HTTPResponse {
        let response = route(request)
        metrics.count(status: response.status)
        return response
    }

    private func route(_ request: HTTPRequest) -> HTTPResponse {
        let method = request.method
        switch request.path {
        case "/healthz":
            guard method == "GET" || method == "HEAD" else { return notAllowed("GET, HEAD") }
            return .text(200, "ok\n")
        case "/metrics":
            guard method == "GET" || method == "HEAD" else { return notAllowed("GET, HEAD") }
            return HTTPResponse(status: 200, contentType: "text/plain; version=0.0.4; charset=utf-8", body: Array(metrics.render().utf8))
        case "/owntracks":
            guard method == "POST" else { return notAllowed("POST") }
            return handleFixes(request, owntracks)
        case "/osmand", "/":
            // Traccar Client posts to the server URL as configured; "/" is the OsmAnd port's root.
            guard method == "GET" || method == "POST" else { return notAllowed("GET, POST") }
            return handleFixes(request, osmand)
        case "/fixes":
            guard method == "POST" else { return notAllowed("POST") }
            return handleFixes(request, fixes)
        default:
            return .problem(404, "no such endpoint (try /owntracks, /osmand, /fixes, /healthz, /metrics)")
        }
    }

    private func notAllowed(_ allowed: String) -> HTTPResponse {
        HTTPResponse.problem(405, "method not allowed here").adding(header: "Allow", allowed)
    }

    private func handleFixes(_ request: HTTPRequest, _ handler: (HTTPRequest, ServerUsers.User?) -> HTTPResponse) -> HTTPResponse {
        inFlight.add(1, ordering: .acquiringAndReleasing)
        defer { inFlight.subtract(1, ordering: .acquiringAndReleasing) }
        if draining.load(ordering: .acquiring) { return shuttingDown() }
        var user: ServerUsers.User?
        if let authenticator {
            switch authenticator.authenticate(request.header("Authorization")) {
            case .denied:
                return HTTPResponse.problem(401, "authentication required (HTTP basic auth with a user of --users)")
                    .adding(header: "WWW-Authenticate", "Basic realm=\"\(Self.realm)\", charset=\"UTF-8\"")
            case .user(let known): user = known
            }
        }
        return handler(request, user)
    }

    private func shuttingDown() -> HTTPResponse {
        HTTPResponse.problem(503, "the server is shutting down").adding(header: "Connection", "close")
    }

    // MARK: endpoints

    private func owntracks(_ request: HTTPRequest, _ user: ServerUsers.User?) -> HTTPResponse {
        var records: [FixRecord]
        switch OwnTracksDecoder.decode(request.body) {
        case .failure(let problem): return problem.response
        case .success(let decoded): records = decoded
        }
        let headerUser = request.header("X-Limit-U").flatMap { $0.isEmpty ? nil : $0 }
        let headerDevice = request.header("X-Limit-D").flatMap { $0.isEmpty ? nil : $0 }
        if let user, let headerUser, headerUser != user.name {
            return .problem(403, "X-Limit-U names another user than the authenticated one")
        }
        for index in records.indices {
            guard case .fix(var fix, let line) = records[index] else { continue }
            let device = headerDevice ?? fix.device
            if let user {
                switch name(device, of: user) {
                case .failure(let problem): return problem.response
                case .success(let named): fix.device = named
                }
            } else if let headerUser {
                fix.device = headerUser + "/" + device
            } else {
                fix.device = device
            }
            records[index] = .fix(fix, line: line)
        }
        return submit(records, source: OwnTracksDecoder.source) { _ in .json(200, "[]") }
    }

    private func osmand(_ request: HTTPRequest, _ user: ServerUsers.User?) -> HTTPResponse {
        var records: [FixRecord]
        switch OsmAndDecoder.decode(query: request.query, body: request.body, contentType: request.header("Content-Type")) {
        case .failure(let problem): return problem.response
        case .success(let decoded): records = decoded
        }
        if let problem = scope(&records, to: user) { return problem.response }
        return submit(records, source: OsmAndDecoder.source) { _ in .text(200, "") }
    }

    private func fixes(_ request: HTTPRequest, _ user: ServerUsers.User?) -> HTTPResponse {
        var records = FixesBodyDecoder.decode(request.body)
        if let problem = scope(&records, to: user) { return problem.response }
        var accepted = 0
        var rejected = "["
        for record in records {
            switch record {
            case .fix: accepted += 1
            case .invalid(let issue):
                if rejected.count > 1 { rejected += "," }
                rejected += "{\"line\":\(issue.line),\"reason\":"
                JSONWriter.appendString(issue.reason, to: &rejected)
                rejected += "}"
            }
        }
        let body = "{\"accepted\":\(accepted),\"rejected\":\(rejected)]}\n"
        if accepted == 0 {
            // Nothing to process; unreadable lines still count and go to stderr.
            if !records.isEmpty { _ = submit(records, source: FixesBodyDecoder.source) { _ in .text(200, "") } }
            return .json(400, body)
        }
        return submit(records, source: FixesBodyDecoder.source, fixesOnly: true) { _ in .json(200, body) }
    }

    // MARK: helpers

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

    /// Hands the records to the engine and waits until they are processed and the outputs
    /// written. A single-fix endpoint whose record is unreadable answers 400 with its reason.
    private func submit(_ records: [FixRecord], source: String, fixesOnly: Bool = false,
                        answer: (Int) -> HTTPResponse) -> HTTPResponse {
        let job = EngineJob(.records(records, source: source))
        guard queue.submit(job) else { return shuttingDown() }
        switch job.wait() {
        case .failed(let reason):
            return .problem(503, reason)
        case .processed(let count):
            if !fixesOnly, case .invalid(let issue)? = records.first(where: { if case .invalid = $0 { true } else { false } }) {
                return .problem(400, "record \(issue.line): \(issue.reason)")
            }
            return answer(count)
        }
    }
}
