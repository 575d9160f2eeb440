import CMicroHTTPD
import Synchronization

#if canImport(Glibc)
import Glibc
@_spi(Inlining) import LandmarkNearCore
#endif

/// How the daemon accepts and limits connections.
package struct HTTPDaemonLimits: Sendable {
    /// libmicrohttpd worker threads (each polls its share of the connections with epoll). A
    /// request waiting for its answer is suspended and holds none, so a few are enough.
    package var threads = 4
    /// Connections open at once; more wait in the listen backlog.
    package var connectionLimit = 1024
    /// Connections open at once from one IP address; more are closed as they arrive. Without
    /// it one client could hold every connection (idle, for the idle timeout, and again).
    package var perClientLimit = 64
    /// Idle or slow connections are closed after this many seconds without progress.
    package var timeoutSeconds = 30
    /// Larger bodies are answered 413.
    package var bodyLimit = 1 << 20

    package init() {}
}

/// The one owner of a GNU libmicrohttpd daemon. Its threads accept connections, parse HTTP and
/// gather each request's body, then call `handler` with the whole request on that thread; the
/// handler answers through its `HTTPResponder`, at once or later from another thread (the
/// connection is suspended meanwhile and holds no daemon thread). Bodies over the limit are
/// answered 413 without calling the handler.
///
///     let daemon = try HTTPDaemon(address: ListenAddress(parsing: "127.0.0.1:0"), limits: HTTPDaemonLimits()) { request, responder in
///         responder.respond(.text(200, "ok\n"))
///     }
///     print(daemon.port)   // the port the system chose
///     daemon.stop()
package final class HTTPDaemon: Sendable {
    private let handle: Mutex<OpaquePointer?>
    // Kept alive as long as the daemon: its C callbacks receive it as their `cls` pointer.
    private let context: DaemonContext
    /// The bound port (the chosen one when the address asked for port 0).
    package let port: UInt16

    /// - Parameters:
    ///   - tls: with a certificate, the daemon speaks TLS only (1.2 and 1.3), presenting it.
    ///   - refused: told of each answer the daemon gives without calling `handler` (413).
    package init(
        address: ListenAddress, limits: HTTPDaemonLimits, tls: TLSCertificate? = nil,
        refused: @escaping @Sendable (HTTPResponse) -> Void = { _ in }, handler: @escaping HTTPHandler
    ) throws(ServerError) {
        let context = DaemonContext(
            handler: handler, refused: refused, bodyLimit: limits.bodyLimit,
            bodySeconds: Double(max(1, limits.timeoutSeconds)))
        self.context = context
        var flags =
            MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_EPOLL.rawValue | MHD_USE_ITC.rawValue
            | MHD_ALLOW_SUSPEND_RESUME.rawValue
        if address.isIPv6 { flags |= MHD_USE_IPv6.rawValue }
        let cls = Unmanaged.passUnretained(context).toOpaque()
        // Opened (on first use) before errno is cleared: the failing start's errno is its own.
        let startDaemon = MicroHTTPDLibrary.functions.start_daemon
        let callback = tls.map { _ in TLSCertificate.callback }
        let (daemon, failure): (OpaquePointer?, Int32) = address.socketAddress.withUnsafeBytes { raw in
            TLSCertificate.priorities.withCString { priorities in
                errno = 0
                let daemon = landmark_mhd_start(
                    startDaemon,
                    flags, raw.baseAddress!.assumingMemoryBound(to: sockaddr.self),
                    answerRequest, cls, requestCompleted, cls, connectionChanged, cls,
                    UInt32(max(1, limits.threads)), UInt32(max(1, limits.connectionLimit)), UInt32(max(1, limits.perClientLimit)),
                    UInt32(max(1, limits.timeoutSeconds)), 64 * 1024, 4096, callback, priorities)
                return (daemon, errno)
            }
        }
        guard let daemon else {
            let reason = failure == 0 ? "libmicrohttpd could not start a daemon" : String(cString: strerror(failure))
            throw .io("cannot listen on \(address): \(reason)")
        }
        port = landmark_mhd_bound_port(MicroHTTPDLibrary.functions.get_daemon_info, daemon)
        handle = Mutex(daemon)
        context.headerDeadlines.startSweeping()
    }

    /// Connections open now.
    package var connectionCount: Int {
        let info = MicroHTTPDLibrary.functions.get_daemon_info
        return handle.withLock { daemon in daemon.map { Int(landmark_mhd_connection_count(info, $0)) } ?? 0 }
    }

    /// Stops accepting new connections; open ones go on until `stop()`.
    package func stopListening() {
        handle.withLock { daemon in
            guard let daemon else { return }
            let socket = MicroHTTPDLibrary.functions.quiesce_daemon(daemon)
            if socket >= 0 { close(socket) }
        }
    }

    /// Closes every connection and joins the daemon's threads (a handler still running is
    /// waited for); requests still waiting for their answer get 503 first. Safe to call more
    /// than once.
    package func stop() {
        context.headerDeadlines.stopSweeping()
        context.suspended.close(answering: HTTPResponse.problem(503, "the server is shutting down").adding(header: "Connection", "close"))
        let daemon = handle.withLock { daemon -> OpaquePointer? in
            let current = daemon
            daemon = nil
            return current
        }
        if let daemon { MicroHTTPDLibrary.functions.stop_daemon(daemon) }
    }

    deinit { stop() }
}

/// What the daemon calls for each complete request, on one of its threads; the answer goes
/// to the responder, now or later.
package typealias HTTPHandler = @Sendable (HTTPRequest, HTTPResponder) -> Void

/// The daemon's callbacks' shared state (their `cls` pointer).
private final class DaemonContext: Sendable {
    let handler: HTTPHandler
    let refused: @Sendable (HTTPResponse) -> Void
    let bodyLimit: Int
    /// A body must arrive whole within this many seconds of its headers.
    let bodySeconds: Double
    let suspended = SuspendedRequests()
    let headerDeadlines: HeaderDeadlines

    init(handler: @escaping HTTPHandler, refused: @escaping @Sendable (HTTPResponse) -> Void, bodyLimit: Int, bodySeconds: Double) {
        headerDeadlines = HeaderDeadlines(seconds: bodySeconds)
        self.handler = handler
        self.refused = refused
        self.bodyLimit = bodyLimit
        self.bodySeconds = bodySeconds
    }
}

/// One request being received: its body so far. libmicrohttpd keeps it in the connection's
/// request pointer between calls; only the thread serving that connection touches it.
private final class PendingRequest {
    /// When the headers were complete (monotonic seconds).
    let started = monotonicSeconds()
    var body: [UInt8] = []
    /// The body passed the limit: what follows is discarded and the answer is 413.
    var discarded = 0
    var tooLarge = false
    /// A response was already queued (on the first call, for a declared length over the limit),
    /// or the handler was called.
    var answered = false
    /// Where the handler answers; a suspended request's answer is taken from it on resumption.
    var responder: HTTPResponder?
}

/// Bodies discarded after the limit up to this size still get their 413; a client that
/// goes on beyond it is disconnected.
private let discardLimit = 16 << 20

private func answerRequest(
    _ cls: UnsafeMutableRawPointer?, _ connection: OpaquePointer?,
    _ url: UnsafePointer<CChar>?, _ method: UnsafePointer<CChar>?,
    _ version: UnsafePointer<CChar>?, _ uploadData: UnsafePointer<CChar>?,
    _ uploadDataSize: UnsafeMutablePointer<Int>?,
    _ requestState: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
) -> MHD_Result {
    guard let cls, let connection, let uploadDataSize, let requestState else { return .NO }
    let context = Unmanaged<DaemonContext>.fromOpaque(cls).takeUnretainedValue()
    guard let state = requestState.pointee else {
        // First call: the headers are in. A declared length over the limit is refused before
        // any body is read (and before curl's `Expect: 100-continue` is answered).
        context.headerDeadlines.headersArrived(connection)
        let pending = PendingRequest()
        requestState.pointee = Unmanaged.passRetained(pending).toOpaque()
        if let declared = MicroHTTPDLibrary.functions.lookup_connection_value(connection, .HEADER_KIND, "Content-Length"),
            let length = Int(String(cString: declared)), length > context.bodyLimit
        {
            pending.answered = true
            return queue(tooLarge(context), on: connection)
        }
        return .YES
    }
    let pending = Unmanaged<PendingRequest>.fromOpaque(state).takeUnretainedValue()
    let size = uploadDataSize.pointee
    if size > 0 {
        uploadDataSize.pointee = 0
        // libmicrohttpd's timeout is for inactivity: a client trickling a byte now and then
        // would hold its connection for ever. The whole body gets the same time instead.
        if monotonicSeconds() - pending.started > context.bodySeconds { return .NO }
        if pending.tooLarge || pending.body.count + size > context.bodyLimit {
            if !pending.tooLarge { pending.discarded = pending.body.count; pending.body = [] }
            pending.tooLarge = true
            pending.discarded += size
            return pending.discarded > discardLimit ? .NO : .YES
        }
        if let uploadData {
            uploadData.withMemoryRebound(to: UInt8.self, capacity: size) { bytes in
                pending.body.append(contentsOf: UnsafeBufferPointer(start: bytes, count: size))
            }
        }
        return .YES
    }
    if pending.answered {
        // Called again after a resumption: the handler's answer is ready.
        if let answer = pending.responder?.takeAnswer() { return queue(answer, on: connection) }
        return .YES
    }
    pending.answered = true
    if pending.tooLarge { return queue(tooLarge(context), on: connection) }

    let headers = collect(connection, .HEADER_KIND)
    let arguments = collect(connection, .GET_ARGUMENT_KIND)
    var request = HTTPRequest(
        method: method.map { String(cString: $0) } ?? "GET",
        path: url.map { String(cString: $0) } ?? "/")
    for (name, value) in headers.pairs { request.headers[name.lowercased()] = value ?? "" }
    request.query = arguments.pairs
    request.body = pending.body
    pending.body = []
    if arguments.invalidUTF8 { return queue(HTTPResponse.problem(400, "a query argument is not valid UTF-8"), on: connection) }
    let responder = HTTPResponder(connection: connection, registry: context.suspended)
    pending.responder = responder
    context.handler(request, responder)
    // Answered already, or suspended until the answer comes.
    guard let response = responder.settle() else { return .YES }
    return queue(response, on: connection)
}

private func requestCompleted(
    _ cls: UnsafeMutableRawPointer?, _ connection: OpaquePointer?,
    _ requestState: UnsafeMutablePointer<UnsafeMutableRawPointer?>?,
    _ reason: MHD_RequestTerminationCode
) {
    if let cls, let connection {
        // Keep-alive: the next request's headers have the same time to arrive.
        Unmanaged<DaemonContext>.fromOpaque(cls).takeUnretainedValue().headerDeadlines.requestEnded(connection)
    }
    guard let requestState, let state = requestState.pointee else { return }
    Unmanaged<PendingRequest>.fromOpaque(state).release()
    requestState.pointee = nil
}

private func connectionChanged(
    _ cls: UnsafeMutableRawPointer?, _ connection: OpaquePointer?,
    _ socketContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>?,
    _ change: MHD_ConnectionNotificationCode
) {
    guard let cls, let connection else { return }
    let deadlines = Unmanaged<DaemonContext>.fromOpaque(cls).takeUnretainedValue().headerDeadlines
    if change.rawValue == 0 {  // MHD_CONNECTION_NOTIFY_STARTED
        deadlines.opened(connection, descriptor: landmark_mhd_connection_fd(MicroHTTPDLibrary.functions.get_connection_info, connection))
    } else {
        // Before libmicrohttpd closes the socket: the sweep never touches a closed descriptor.
        deadlines.closed(connection)
    }
}

private func tooLarge(_ context: DaemonContext) -> HTTPResponse {
    let response = HTTPResponse.problem(413, "the body is larger than \(context.bodyLimit) bytes")
    context.refused(response)
    return response
}

private func queue(_ response: HTTPResponse, on connection: OpaquePointer) -> MHD_Result {
    let created = response.body.withUnsafeBytes { raw in
        MicroHTTPDLibrary.functions.create_response_from_buffer(
            raw.count, UnsafeMutableRawPointer(mutating: raw.baseAddress), .RESPMEM_MUST_COPY)
    }
    guard let created else { return .NO }
    defer { MicroHTTPDLibrary.functions.destroy_response(created) }
    _ = MicroHTTPDLibrary.functions.add_response_header(created, "Content-Type", response.contentType)
    for header in response.headers {
        // Header values are ours, but never let a line break through.
        let value = String(header.value.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F })
        _ = MicroHTTPDLibrary.functions.add_response_header(created, header.name, value)
    }
    return MicroHTTPDLibrary.functions.queue_response(connection, UInt32(response.status), created)
}

/// Headers or query arguments of a connection, collected through libmicrohttpd's iterator.
private final class CollectedValues {
    var pairs: [(name: String, value: String?)] = []
    var invalidUTF8 = false
}

private func collect(_ connection: OpaquePointer, _ kind: MHD_ValueKind) -> CollectedValues {
    let values = CollectedValues()
    _ = MicroHTTPDLibrary.functions.get_connection_values(connection, kind, collectValue, Unmanaged.passUnretained(values).toOpaque())
    return values
}

private func collectValue(
    _ cls: UnsafeMutableRawPointer?, _ kind: MHD_ValueKind,
    _ key: UnsafePointer<CChar>?, _ value: UnsafePointer<CChar>?
) -> MHD_Result {
    guard let cls, let key else { return .YES }
    let values = Unmanaged<CollectedValues>.fromOpaque(cls).takeUnretainedValue()
    guard let name = String(validatingCString: key) else {
        values.invalidUTF8 = true
        return .YES
    }
    var text: String?
    if let value {
        guard let valid = String(validatingCString: value) else {
            values.invalidUTF8 = true
            return .YES
        }
        text = valid
    }
    values.pairs.append((name, text))
    return .YES
}

private func monotonicSeconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}
