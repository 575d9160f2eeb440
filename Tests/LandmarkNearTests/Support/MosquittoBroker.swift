import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A Mosquitto broker (Debian's `mosquitto`, installed by Scripts/setup.sh) started by a test
/// on a free 127.0.0.1 port, with a config file and a persistence directory of its own in
/// `directory`: `persistence true` (a clean stop saves the queued QoS 1 messages of persistent
/// sessions, and a start loads them), no limit on queued messages (a subscriber that is away
/// or slow loses nothing to `max_queued_messages`), anonymous clients unless `passwordFile`,
/// TLS with `tls`. It can be stopped (SIGTERM: saved) and started again on the same port.
///
///     let broker = try MosquittoBroker(directory: directory)
///     defer { broker.kill() }
///     try broker.restart()
final class MosquittoBroker: Sendable {
    struct TLSFiles: Sendable {
        var ca: String
        var certificate: String
        var key: String
    }

    let port: Int
    let directory: URL
    private let configPath: String
    private let process = Mutex<ChildProcess?>(nil)
    private let log: URL

    static let executable = "/usr/sbin/mosquitto"

    init(directory: URL, passwordFile: String? = nil, tls: TLSFiles? = nil) throws {
        guard FileManager.default.isExecutableFile(atPath: MosquittoBroker.executable) else {
            throw CounterpartError("\(MosquittoBroker.executable) is missing: run bash Scripts/setup.sh")
        }
        self.directory = directory
        port = try freePort()
        let persistence = directory.appendingPathComponent("broker-data")
        try FileManager.default.createDirectory(at: persistence, withIntermediateDirectories: true)
        log = directory.appendingPathComponent("broker.log")
        var lines = [
            "listener \(port) 127.0.0.1",
            "persistence true",
            "persistence_location \(persistence.path)/",
            "max_queued_messages 0",
            "log_dest file \(log.path)",
            "log_type error",
            "log_type warning",
            "log_type notice",
            "connection_messages true",
        ]
        // As root, Mosquitto drops to the `mosquitto` user, which may not write here.
        if getuid() == 0 { lines.append("user root") }
        if let passwordFile {
            lines += ["allow_anonymous false", "password_file \(passwordFile)"]
        } else {
            lines.append("allow_anonymous true")
        }
        if let tls {
            lines += ["cafile \(tls.ca)", "certfile \(tls.certificate)", "keyfile \(tls.key)"]
        }
        configPath = directory.appendingPathComponent("mosquitto.conf").path
        try (lines.joined(separator: "\n") + "\n").write(toFile: configPath, atomically: true, encoding: .utf8)
        try start()
    }

    deinit { kill() }

    /// Starts it and waits (at most 10 s) until it accepts connections.
    func start() throws {
        let child = ChildProcess()
        child.executableURL = URL(fileURLWithPath: MosquittoBroker.executable)
        child.arguments = ["-c", configPath]
        child.standardInput = FileHandle.nullDevice
        child.standardOutput = FileHandle.nullDevice
        child.standardError = FileHandle.nullDevice
        try child.run()
        process.withLock { $0 = child }
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if canConnect(port: port) { return }
            guard child.isRunning else { break }
            usleep(20_000)
        }
        throw CounterpartError("mosquitto did not start on port \(port): \(logText)")
    }

    /// SIGTERM (Mosquitto saves its persistence file) and waits for the end.
    func stop() {
        guard let child = process.withLock({ $0.take() }) else { return }
        child.signal(SIGTERM)
        if !child.waitUntilExit(timeout: 10) {
            child.signal(SIGKILL)
            child.waitUntilExit()
        }
    }

    /// A clean restart on the same port: what it held for persistent sessions is kept.
    func restart() throws {
        stop()
        try start()
    }

    /// SIGKILL, for cleanup.
    func kill() {
        guard let child = process.withLock({ $0.take() }) else { return }
        child.signal(SIGKILL)
        child.waitUntilExit()
    }

    var logText: String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }
    var url: String { "mqtt://127.0.0.1:\(port)" }
}

/// Whether something accepts TCP connections on 127.0.0.1:`port`.
func canConnect(port: Int) -> Bool {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { return false }
    defer { close(descriptor) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = UInt16(port).bigEndian
    return withUnsafePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
        }
    }
}

/// Publishes one message with Debian's `mosquitto_pub` (QoS 1, as the OwnTracks app does).
func mosquittoPublish(port: Int, topic: String, message: String, extra: [String] = []) async throws {
    let result = try await runProcess(
        "/usr/bin/mosquitto_pub", ["-h", "127.0.0.1", "-p", String(port), "-q", "1", "-t", topic, "-m", message] + extra, timeout: 20)
    guard result.status == 0 else { throw CounterpartError("mosquitto_pub failed: \(result.stderr)") }
}
