import CNATS
@_spi(Inlining) import LandmarkNearCore

#if canImport(Glibc)
import Glibc
#endif

/// One connection to a NATS cluster and its JetStream context: the one owner of libnats's
/// options, connection and context, freed in `deinit` in the order libnats asks (context,
/// connection, options). Used by one thread (libnats is thread-safe, but LandmarkNear gives
/// each connection one user: the publisher's loop, or the partitions' reader).
///
/// With a `status` (`serve --nats`), a server that cannot be reached at start is not an error:
/// libnats keeps trying every server of the list, with a backoff (0.25 s doubling to 4 s after
/// each pass over the list), forever, and reports each change of state, as it does when the
/// connection is lost later. Without one (`publish`), no server answering at start is an error.
///
///     let connection = try NATSConnection(servers: servers, name: "landmark-near publish")
///     try connection.jetStream  // jsCtx*, for js_* calls
final class NATSConnection {
    let jetStream: OpaquePointer
    private let connection: OpaquePointer
    private let options: OpaquePointer
    private let status: NATSStatus?
    private var isClosed = false

    /// `publishWindow`: the asynchronous publishes that may wait for their acknowledgements at
    /// once, and `publishAcks` what JetStream answered to each (`publish`).
    init(
        servers: NATSServers, name: String, status: NATSStatus? = nil, publishWindow: Int = 0,
        publishAcks: NATSPublishAcks? = nil
    ) throws(ServerError) {
        let library = NATSLibrary.functions
        var options: OpaquePointer?
        guard library.natsOptions_Create(&options) == NATS_OK, let options else {
            throw .io("libnats cannot make its options (out of memory)", .nats)
        }
        var urls = servers.urls.map { UnsafePointer(strdup($0)) }
        defer { for url in urls { free(UnsafeMutablePointer(mutating: url)) } }
        var code = urls.withUnsafeMutableBufferPointer { buffer in
            library.natsOptions_SetServers(options, buffer.baseAddress, Int32(buffer.count))
        }
        if code == NATS_OK { code = library.natsOptions_SetName(options, name) }
        // Forever: a cluster that comes back is used again, however long it was gone.
        if code == NATS_OK { code = library.natsOptions_SetMaxReconnect(options, -1) }
        if code == NATS_OK { code = library.natsOptions_SetTimeout(options, 2000) }
        if code == NATS_OK {
            code = library.natsOptions_SetCustomReconnectDelay(
                options,
                { _, attempts, _ in
                    // After each pass over the servers: 0.25 s, doubling, at most 4 s.
                    Int64(250) << Int64(min(max(attempts - 1, 0), 4))
                }, nil)
        }
        // A lost connection buffers what is published meanwhile (8 MiB), sent on reconnection.
        if code == NATS_OK { code = library.natsOptions_SetReconnectBufSize(options, 8 << 20) }
        // libnats calls back on a thread of its own, later than anything here: the status is
        // retained for it and released by the last callback, the one telling that the
        // connection is closed (libnats queues it after every other). Unretained, a
        // disconnection told after `serve` let go of its status would read freed memory.
        let closure = status.map { Unmanaged.passRetained($0).toOpaque() }
        if code == NATS_OK, closure != nil {
            code = library.natsOptions_SetClosedCB(
                options,
                { _, closure in
                    guard let closure else { return }
                    Unmanaged<NATSStatus>.fromOpaque(closure).release()
                }, closure)
        }
        if code == NATS_OK, closure != nil {
            code = library.natsOptions_SetDisconnectedCB(
                options,
                { _, closure in
                    guard let closure else { return }
                    Unmanaged<NATSStatus>.fromOpaque(closure).takeUnretainedValue().linkMoved(to: .disconnected)
                }, closure)
        }
        if code == NATS_OK, closure != nil {
            code = library.natsOptions_SetReconnectedCB(
                options,
                { connection, closure in
                    guard let closure else { return }
                    Unmanaged<NATSStatus>.fromOpaque(closure).takeUnretainedValue().linkMoved(
                        to: .connected(url: NATSConnection.connectedURL(connection)))
                }, closure)
        }
        if code == NATS_OK, closure != nil {
            code = library.natsOptions_SetRetryOnFailedConnect(
                options, true,
                { connection, closure in
                    guard let closure else { return }
                    Unmanaged<NATSStatus>.fromOpaque(closure).takeUnretainedValue().linkMoved(
                        to: .connected(url: NATSConnection.connectedURL(connection)))
                }, closure)
        }
        guard code == NATS_OK else {
            let reason = NATSLibrary.describe(code)
            library.natsOptions_Destroy(options)
            throw .usage("libnats refuses the options: \(reason)", .nats)
        }
        var connection: OpaquePointer?
        code = library.natsConnection_Connect(&connection, options)
        guard code == NATS_OK || (code == NATS_NOT_YET_CONNECTED && status != nil), let connection else {
            let reason = NATSLibrary.describe(code)
            if let connection { library.natsConnection_Destroy(connection) }
            library.natsOptions_Destroy(options)
            throw ServerError(kind: .unavailable, setting: .nats, message: "cannot connect to \(servers.shown): \(reason)")
        }
        if code == NATS_OK { status?.linkMoved(to: .connected(url: NATSConnection.connectedURL(connection))) }
        var jetStreamOptions = jsOptions()
        _ = library.jsOptions_Init(&jetStreamOptions)
        jetStreamOptions.Wait = 5000
        if publishWindow > 0 {
            jetStreamOptions.PublishAsync.MaxPending = Int64(publishWindow)
            // Every answer, stored or refused, is counted: a window is settled only when each
            // of its messages was answered (or handed back unanswered after the wait).
            if let publishAcks {
                jetStreamOptions.PublishAsync.AckHandler = { _, message, _, failure, closure in
                    if let closure {
                        Unmanaged<NATSPublishAcks>.fromOpaque(closure).takeUnretainedValue().answered(message, failure: failure?.pointee)
                    }
                    // The handler owns the message (libnats's documentation of jsPubAckHandler).
                    NATSLibrary.functions.natsMsg_Destroy(message)
                }
                jetStreamOptions.PublishAsync.AckHandlerClosure = Unmanaged.passUnretained(publishAcks).toOpaque()
            }
        }
        var context: OpaquePointer?
        code = library.natsConnection_JetStream(&context, connection, &jetStreamOptions)
        guard code == NATS_OK, let context else {
            let reason = NATSLibrary.describe(code)
            library.natsConnection_Destroy(connection)
            library.natsOptions_Destroy(options)
            throw .io("libnats cannot make a JetStream context: \(reason)", .nats)
        }
        self.options = options
        self.connection = connection
        self.jetStream = context
        self.status = status
    }

    deinit { close() }

    /// Closes the connection and frees libnats's objects (at most once; `deinit` does it
    /// otherwise). Nothing of this connection may be used after.
    func close() {
        guard !isClosed else { return }
        isClosed = true
        let library = NATSLibrary.functions
        // Closed first, so that libnats's disconnection callback finds the status closed and
        // says nothing of a disconnection that is only the end of the run.
        status?.linkMoved(to: .closed)
        library.jsCtx_Destroy(jetStream)
        library.natsConnection_Close(connection)
        library.natsConnection_Destroy(connection)
        library.natsOptions_Destroy(options)
    }

    /// Whether the connection is up now.
    var isConnected: Bool { NATSLibrary.functions.natsConnection_Status(connection) == NATS_CONN_STATUS_CONNECTED }

    /// The server connected to, without user or password (`nats://127.0.0.1:4222`).
    private static func connectedURL(_ connection: OpaquePointer?) -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard let connection, NATSLibrary.functions.natsConnection_GetConnectedUrl(connection, &buffer, buffer.count) == NATS_OK
        else { return "a server" }
        let url = String(cString: buffer)
        guard let at = url.lastIndex(of: "@") else { return url }
        return "nats://" + url[url.index(after: at)...]
    }
}
