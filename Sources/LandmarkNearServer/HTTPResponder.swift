import CMicroHTTPD
import Synchronization

/// Where a handler sends the answer to one request, at once (on the daemon thread that called
/// it) or later from any thread. A request not answered by the time its handler returns is
/// suspended in libmicrohttpd: it holds no daemon thread while it waits (for the engine, say),
/// so one daemon thread can keep many requests waiting and a slow answer to one connection
/// does not hold up the others that thread serves. `respond` resumes it.
///
///     router.respond(to: request, responder)          // on a daemon thread
///     responder.respond(.text(200, "ok\n"))           // later, on the engine thread
///
/// Only the first answer counts; later ones are ignored (a request the daemon answered itself
/// when it stopped, for example).
package final class HTTPResponder: Sendable {
    private enum Stage {
        /// The handler is running and has not answered.
        case handling
        /// The handler returned without an answer: the connection is suspended.
        case suspended
        /// An answer is waiting to be queued on the connection.
        case answered(HTTPResponse)
        /// The answer was handed to the daemon.
        case sent
    }

    private let stage = Mutex(Stage.handling)
    /// The `MHD_Connection` (its address, kept as a number: only libmicrohttpd dereferences it,
    /// and only while the connection is suspended, when it cannot go away).
    private let connection: UInt
    private let registry: SuspendedRequests

    init(connection: OpaquePointer, registry: SuspendedRequests) {
        self.connection = UInt(bitPattern: connection)
        self.registry = registry
    }

    private var pointer: OpaquePointer? { OpaquePointer(bitPattern: connection) }

    /// Answers the request (from any thread); a suspended connection is resumed.
    package func respond(_ response: HTTPResponse) {
        let resumed = stage.withLock { stage -> Bool in
            switch stage {
            case .handling:
                stage = .answered(response)
                return false
            case .suspended:
                stage = .answered(response)
                // Under the lock: once a stopping daemon has looked at this request, it is
                // resumed (libmicrohttpd must not stop with a suspended connection).
                if let pointer { MicroHTTPDLibrary.functions.resume_connection(pointer) }
                return true
            case .answered, .sent:
                return false
            }
        }
        if resumed { registry.remove(self) }
    }

    /// Called by the daemon thread when the handler has returned: the answer to queue now, or
    /// nil when the connection was suspended to wait for it. A daemon that is stopping answers
    /// 503 instead of suspending.
    func settle() -> HTTPResponse? {
        stage.withLock { stage -> HTTPResponse? in
            switch stage {
            case .answered(let response):
                stage = .sent
                return response
            case .handling:
                guard registry.add(self), let pointer else {
                    stage = .sent
                    return HTTPResponse.problem(503, "the server is shutting down").adding(header: "Connection", "close")
                }
                // Under the lock: `respond` cannot resume before the suspension.
                MicroHTTPDLibrary.functions.suspend_connection(pointer)
                stage = .suspended
                return nil
            case .suspended, .sent:
                return nil
            }
        }
    }

    /// Called by the daemon thread when a resumed connection is called again: its answer.
    func takeAnswer() -> HTTPResponse? {
        stage.withLock { stage -> HTTPResponse? in
            guard case .answered(let response) = stage else { return nil }
            stage = .sent
            return response
        }
    }
}

/// The requests suspended in one daemon, so that stopping it can answer them first
/// (libmicrohttpd must not be stopped with a suspended connection).
final class SuspendedRequests: Sendable {
    private struct State {
        var waiting: [ObjectIdentifier: HTTPResponder] = [:]
        var closed = false
    }

    private let state = Mutex(State())

    /// False once the daemon is stopping (the request is then answered at once).
    func add(_ responder: HTTPResponder) -> Bool {
        state.withLock { state in
            guard !state.closed else { return false }
            state.waiting[ObjectIdentifier(responder)] = responder
            return true
        }
    }

    func remove(_ responder: HTTPResponder) {
        _ = state.withLock { $0.waiting.removeValue(forKey: ObjectIdentifier(responder)) }
    }

    /// No more suspensions; those waiting are answered `response` (and resumed).
    func close(answering response: HTTPResponse) {
        let waiting = state.withLock { state -> [HTTPResponder] in
            state.closed = true
            return Array(state.waiting.values)
        }
        for responder in waiting { responder.respond(response) }
    }
}
