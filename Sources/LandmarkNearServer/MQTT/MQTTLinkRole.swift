/// What one MQTT connection of `serve` is for — the subscription whose messages feed the
/// engine (`MQTTReceiverRole`), or the publishing of event lines (`MQTTPublisherRole`) — as
/// its network thread (`MQTTLink`) asks. Every call comes on that thread.
protocol MQTTLinkRole: AnyObject {
    /// `mqtt` or `mqtt publish`: what the connection's stderr lines start with.
    var label: String { get }
    /// The broker accepted CONNECT (with the session it kept, when `sessionPresent`).
    func connected(_ client: MosquittoClient, sessionPresent: Bool)
    /// The broker answered SUBSCRIBE.
    func subscribeAnswered(granted: Int32)
    /// Reads what the socket holds; `isConnected` tells whether the broker has accepted CONNECT
    /// (it may do so during the read). Nothing may be written meanwhile.
    func read(_ client: MosquittoClient, isConnected: () -> Bool) -> MQTTReadOutcome
    /// A message from the broker, inside `read`.
    func received(topic: UnsafePointer<CChar>, payload: UnsafeRawBufferPointer)
    /// The broker's PUBACK of one of our publishes, inside `read`.
    func acknowledged(mid: Int32, reasonCode: Int32)
    /// Before the queued packets are written (connected): queue what waits to be sent.
    func prepareWrite(_ client: MosquittoClient)
    /// The connection moved to `state`.
    func moved(to state: MQTTConnectionState)
}

/// How a read ended.
enum MQTTReadOutcome: Equatable {
    /// The socket is empty for now: wait for it.
    case drained
    /// The read stopped before the socket was empty: read again without waiting.
    case more
    /// The connection is gone (libmosquitto's error code).
    case lost(Int32)
    /// What was read could not be committed, for this reason: drop the connection without
    /// writing (the PUBACKs queued go with it) and connect again, so the broker sends it again.
    case uncommitted(String)
    /// Close at once, without writing: what was read cannot be acknowledged.
    case abandon
}
