import CMosquitto
@_spi(Inlining) import LandmarkNearCore

#if canImport(Glibc)
import Glibc
#endif

/// What a client's callbacks report. Called on the client's own thread, from inside its
/// `read()`, `write()` and `keepAlive()` calls: nothing here crosses threads.
protocol MosquittoEvents: AnyObject {
    /// The broker's CONNACK: 0 accepted, else an MQTT 5 reason code.
    func connectAnswered(reasonCode: Int32, sessionPresent: Bool)
    /// A PUBLISH from the broker, whole.
    func received(topic: UnsafePointer<CChar>, payload: UnsafeRawBufferPointer)
    /// The broker's PUBACK of one of our QoS 1 publishes (`mid` is `publish`'s), with its
    /// reason code (0x80 and above: refused).
    func acknowledged(mid: Int32, reasonCode: Int32)
    /// The broker's SUBACK: the QoS granted, or a reason code of 0x80 and above.
    func subscribeAnswered(granted: Int32)
}

/// The one owner of a libmosquitto client (`struct mosquitto`), made and used on one thread,
/// the connection's network thread, and destroyed (socket closed, nothing more sent) with it.
///
/// It is a client that runs no loop of its own: the network thread polls its socket and calls
/// `read()` and `write()` itself, and the client is marked threaded (`mosquitto_threaded_set`)
/// so that libmosquitto never writes on its own. That is what lets `serve` hold back a PUBACK:
/// libmosquitto 2.0 queues the PUBACK of a QoS 1 message *before* it calls the message
/// callback (lib/handle_publish.c), and offers no manual acknowledgement; an unthreaded client
/// would write it then and there. Queued, it goes out with the next `write()`, which the
/// receiver makes only once the message's fixes are committed (docs/reference/mqtt.md).
///
///     let client = try MosquittoClient(options: options, password: nil)
///     client.events = receiver
///     _ = client.connect(to: options.broker, keepAlive: 30)
final class MosquittoClient {
    private let handle: OpaquePointer
    weak var events: (any MosquittoEvents)?
    private var connectedBefore = false
    /// The last error libmosquitto logged (a TLS failure's OpenSSL reason), for messages.
    private(set) var lastLoggedError: String?

    /// A client of `options`' broker: MQTT 5, persistent session when `clientID` is given.
    init(clientID: String?, options: MQTTOptions, username: String?, password: String?) throws(ServerError) {
        let library = MosquittoLibrary.functions
        guard let handle = library.new_client(clientID, clientID == nil, nil) else {
            throw .io("cannot make an MQTT client (libmosquitto \(MosquittoLibrary.version))", .mqtt)
        }
        self.handle = handle
        library.user_data_set(handle, Unmanaged.passUnretained(self).toOpaque())
        try check(library.int_option(handle, MOSQ_OPT_PROTOCOL_VERSION, MQTT_PROTOCOL_V5), "MQTT 5")
        try check(library.int_option(handle, MOSQ_OPT_RECEIVE_MAXIMUM, Int32(options.receiveMaximum)), "the receive maximum")
        _ = library.int_option(handle, MOSQ_OPT_TCP_NODELAY, 1)
        try check(library.threaded_set(handle, true), "threaded mode")
        if username != nil || password != nil {
            try check(library.username_pw_set(handle, username, password), "the user name and password")
        }
        if options.broker.usesTLS {
            if let caFile = options.caFile {
                try check(library.tls_set(handle, caFile, nil, nil, nil, nil), "--mqtt-ca \(TerminalText.safe(caFile))", .mqttCA)
            } else {
                try check(library.int_option(handle, MOSQ_OPT_TLS_USE_OS_CERTS, 1), "the system's certificate authorities")
            }
        }
        library.connect_v5_callback_set(handle) { _, context, reasonCode, flags, _ in
            MosquittoClient.of(context)?.events?.connectAnswered(reasonCode: reasonCode, sessionPresent: flags & 1 != 0)
        }
        library.message_callback_set(handle) { _, context, message in
            guard let message = message?.pointee, let topic = message.topic else { return }
            let payload = UnsafeRawBufferPointer(start: message.payload, count: Int(max(0, message.payloadlen)))
            MosquittoClient.of(context)?.events?.received(topic: topic, payload: payload)
        }
        library.publish_v5_callback_set(handle) { _, context, mid, reasonCode, _ in
            MosquittoClient.of(context)?.events?.acknowledged(mid: mid, reasonCode: reasonCode)
        }
        library.subscribe_v5_callback_set(handle) { _, context, _, count, granted, _ in
            guard count > 0, let granted else { return }
            MosquittoClient.of(context)?.events?.subscribeAnswered(granted: granted[0])
        }
        library.log_callback_set(handle) { _, context, level, text in
            guard level == MOSQ_LOG_ERR, let text, let client = MosquittoClient.of(context) else { return }
            client.lastLoggedError = String(cString: text)
        }
    }

    deinit { MosquittoLibrary.functions.destroy(handle) }

    private static func of(_ context: UnsafeMutableRawPointer?) -> MosquittoClient? {
        context.map { Unmanaged<MosquittoClient>.fromOpaque($0).takeUnretainedValue() }
    }

    private func check(_ code: Int32, _ what: String, _ setting: ServerError.Setting = .mqtt) throws(ServerError) {
        guard code != MOSQ_ERR_SUCCESS.rawValue else { return }
        throw .usage("libmosquitto \(MosquittoLibrary.version) refused \(what): \(MosquittoLibrary.describe(code))", setting)
    }

    /// Opens the connection (TCP, TLS) and queues CONNECT: the first time with the session's
    /// properties, after that as a reconnection (libmosquitto drops whatever was queued for
    /// the old connection, PUBACKs included, and the broker sends those messages again).
    /// Blocks for the TCP connect and the name lookup. A libmosquitto error code.
    func connect(to broker: MQTTBrokerURL, keepAlive: Int, persistent: Bool) -> Int32 {
        lastLoggedError = nil
        let library = MosquittoLibrary.functions
        if connectedBefore { return library.reconnect(handle) }
        connectedBefore = true
        var properties: OpaquePointer?
        defer { library.property_free_all(&properties) }
        // MQTT 5 ends a session when its connection closes unless CONNECT asks for longer:
        // 0xFFFFFFFF keeps it for as long as the broker keeps sessions (its
        // persistent_client_expiration).
        if persistent { _ = library.property_add_int32(&properties, Int32(MQTT_PROP_SESSION_EXPIRY_INTERVAL.rawValue), .max) }
        return library.connect_bind_v5(handle, broker.host, Int32(broker.port), Int32(keepAlive), nil, properties)
    }

    /// SUBSCRIBE with QoS 1; retained messages only when the subscription is new.
    func subscribe(_ filter: String) -> Int32 {
        let options = Int32(MQTT_SUB_OPT_SEND_RETAIN_NEW.rawValue)
        return MosquittoLibrary.functions.subscribe_v5(handle, nil, filter, 1, options, nil)
    }

    /// Queues a QoS 1 PUBLISH (not retained); its message id, or the error code.
    func publish(topic: String, payload: [UInt8]) -> (code: Int32, mid: Int32) {
        var mid: Int32 = 0
        let code = payload.withUnsafeBytes { bytes in
            MosquittoLibrary.functions.publish(handle, &mid, topic, Int32(bytes.count), bytes.baseAddress, 1, false)
        }
        return (code, mid)
    }

    /// Reads what the socket holds, one packet or more, calling the callbacks. 0, or the error
    /// that lost the connection.
    func read() -> Int32 { MosquittoLibrary.functions.loop_read(handle, 1) }

    /// Writes every queued packet the socket takes now.
    func write() -> Int32 { MosquittoLibrary.functions.loop_write(handle, 1) }

    /// Sends a keep-alive ping when one is due, and notices a broker that stopped answering.
    func keepAlive() -> Int32 { MosquittoLibrary.functions.loop_misc(handle) }

    /// Queues DISCONNECT; the next `write()` sends it and closes the socket.
    func disconnect() -> Int32 { MosquittoLibrary.functions.disconnect(handle) }

    var socket: Int32 { MosquittoLibrary.functions.socket(handle) }
    var wantsWrite: Bool { MosquittoLibrary.functions.want_write(handle) }
}
