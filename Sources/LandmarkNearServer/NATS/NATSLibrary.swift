import CNATS
@_spi(Inlining) import LandmarkNearCore

/// libnats's functions that `publish` and `serve --nats` call, opened when the first connection
/// is made (`SharedLibrary`): other commands, and `serve` without `--nats`, never open it, so a
/// machine without libnats loses only NATS.
///
///     let status = NATSLibrary.functions.natsOptions_Create(&options)
enum NATSLibrary {
    /// Opened once, on first use (Swift initialises a static `let` lazily and thread-safely).
    static let functions: landmark_nats = SharedLibrary(
        names: ["libnats.so", "libnats.so.3.4"], purpose: "NATS JetStream (libnats)", package: "libnats-dev"
    ).table(landmark_nats_resolve)

    /// The library's version (`3.4.1`).
    static var version: String { functions.nats_GetVersion().map { String(cString: $0) } ?? "unknown" }

    /// Waits (at most 2 s) until libnats's own threads have ended, once every connection is
    /// closed and destroyed: libnats says they may run on after the destroy calls, and a thread
    /// of a library still running while the process exits may touch what exit tears down.
    static func closeAndWait() { _ = functions.nats_CloseAndWait(2000) }

    /// libnats's text for a status, with the text of the last error of this thread when it
    /// says more (`nats_GetLastError`: "no server available for connection" says less than
    /// "connection refused").
    static func describe(_ status: natsStatus) -> String {
        let text = functions.natsStatus_GetText(status).map { String(cString: $0) } ?? "status \(status.rawValue)"
        var last = NATS_OK
        guard let detail = functions.nats_GetLastError(&last).map({ String(cString: $0) }), !detail.isEmpty, detail != text,
            last == status
        else { return text }
        return "\(text) (\(detail))"
    }
}
