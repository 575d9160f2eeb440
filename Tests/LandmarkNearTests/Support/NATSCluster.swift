import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// NATS servers with JetStream (Debian's `nats-server`) started by a test on 127.0.0.1, each
/// with free ports of its own (clients, routes, monitoring), a config file and a JetStream store
/// directory in `directory`: by default a three-server cluster (`n1`, `n2`, `n3`, each routing
/// to the other two), or one standalone server with `servers: 1` (streams of one replica).
/// The initializer waits until every server is healthy and, in a cluster, the JetStream meta
/// leader is elected. Servers are numbered from 0 (`servers[0]` is `n1`). A server killed
/// with `kill9(server:)` comes back with `restart(server:)` on the same ports and store.
///
///     let cluster = try NATSCluster()                 // three servers
///     defer { cluster.kill() }
///     ... "--nats", cluster.urls ...                  // nats://127.0.0.1:p1,nats://127.0.0.1:p2,...
///     cluster.kill9(server: 1)
///     try cluster.restart(server: 1)
final class NATSCluster: Sendable {
    struct Server: Sendable {
        var name: String
        var clientPort: Int
        var clusterPort: Int
        var monitorPort: Int
        var store: URL
        var configPath: String
        var logPath: String
        var url: String { "nats://127.0.0.1:\(clientPort)" }
    }

    static let executable = "/usr/sbin/nats-server"

    let directory: URL
    let servers: [Server]
    private let ownsDirectory: Bool
    private let processes: Mutex<[ChildProcess?]>

    /// - Parameters:
    ///   - directory: where configs, stores and logs go (default: a temporary directory of its
    ///     own, removed when this goes away).
    ///   - start: false to write the configs only (a test of servers that are not there yet
    ///     starts them later with `start(server:)` or `startAll()`).
    init(servers count: Int = 3, directory: URL? = nil, start: Bool = true, timeout: Double = 30) throws {
        guard FileManager.default.isExecutableFile(atPath: NATSCluster.executable) else {
            throw CounterpartError("\(NATSCluster.executable) is missing: run bash Scripts/setup.sh (Debian's nats-server)")
        }
        precondition(count >= 1)
        ownsDirectory = directory == nil
        self.directory = try directory ?? makeTemporaryDirectory("nats")
        var ports = Set<Int>()
        func port() throws -> Int {
            // freePort() may name a port it named before once that socket is closed.
            for _ in 0..<50 {
                let candidate = try freePort()
                if ports.insert(candidate).inserted { return candidate }
            }
            throw CounterpartError("no free port")
        }
        var servers: [Server] = []
        for index in 0..<count {
            let name = "n\(index + 1)"
            let client = try port()
            let route = try port()
            let monitor = try port()
            servers.append(
                Server(
                    name: name, clientPort: client, clusterPort: route, monitorPort: monitor,
                    store: self.directory.appendingPathComponent("\(name)-store"),
                    configPath: self.directory.appendingPathComponent("\(name).conf").path,
                    logPath: self.directory.appendingPathComponent("\(name).log").path))
        }
        self.servers = servers
        processes = Mutex(Array(repeating: nil, count: count))
        for server in servers {
            try FileManager.default.createDirectory(at: server.store, withIntermediateDirectories: true)
            try NATSCluster.config(of: server, among: servers).write(toFile: server.configPath, atomically: true, encoding: .utf8)
        }
        if start { try startAll(timeout: timeout) }
    }

    deinit {
        kill()
        if ownsDirectory { try? FileManager.default.removeItem(at: directory) }
    }

    /// The config file of one server: JetStream with its own store, and with more than one
    /// server a cluster block routing to the others.
    static func config(of server: Server, among servers: [Server]) -> String {
        var lines = [
            "server_name: \(server.name)",
            "listen: 127.0.0.1:\(server.clientPort)",
            "http: 127.0.0.1:\(server.monitorPort)",
            "jetstream {",
            "  store_dir: \"\(server.store.path)\"",
            "  max_mem: 64MB",
            "  max_file: 512MB",
            "}",
        ]
        if servers.count > 1 {
            lines += [
                "cluster {",
                "  name: landmark-near-tests",
                "  listen: 127.0.0.1:\(server.clusterPort)",
                "  routes: [",
            ]
            lines += servers.filter { $0.name != server.name }.map { "    nats-route://127.0.0.1:\($0.clusterPort)" }
            lines += ["  ]", "}"]
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Every server's client URL, comma-separated (as `--nats` takes them).
    var urls: String { servers.map(\.url).joined(separator: ",") }

    /// The index of the server whose client port is `port` (from a `connected to` line).
    func server(clientPort port: Int) -> Int? { servers.firstIndex { $0.clientPort == port } }

    func isRunning(server index: Int) -> Bool { processes.withLock { $0[index]?.isRunning ?? false } }

    /// Starts every server that is not running and waits (at most `timeout` seconds) until the
    /// cluster is ready (`waitUntilReady`).
    func startAll(timeout: Double = 30) throws {
        for index in servers.indices where !isRunning(server: index) { try launch(index) }
        try waitUntilReady(timeout: timeout)
    }

    /// Starts one server (not running) and waits until it is healthy and, in a cluster, knows
    /// the meta leader; with a majority of the servers down there is none, so a test that
    /// starts them one by one passes `waitForLeader: false` for the first ones.
    func start(server index: Int, waitForLeader: Bool = true, timeout: Double = 30) throws {
        if !isRunning(server: index) { try launch(index) }
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if waitForLeader ? isReady(index) : isHealthy(index, jetStreamOnly: true) { return }
            guard isRunning(server: index) else { break }
            usleep(100_000)
        }
        throw CounterpartError("nats-server \(servers[index].name) did not get ready within \(timeout) s: \(logText(server: index))")
    }

    /// `kill -9` of one server (a crash: nothing flushed, nothing said to the others).
    func kill9(server index: Int) {
        guard let child = processes.withLock({ $0[index].take() }) else { return }
        child.signal(SIGKILL)
        child.waitUntilExit()
    }

    /// Starts a killed (or stopped) server again on the same ports with the same store.
    func restart(server index: Int, timeout: Double = 30) throws {
        kill9(server: index)
        try start(server: index, timeout: timeout)
    }

    /// A clean stop of one server (SIGTERM; SIGKILL after 10 s).
    func stop(server index: Int) {
        guard let child = processes.withLock({ $0[index].take() }) else { return }
        child.signal(SIGTERM)
        if !child.waitUntilExit(timeout: 10) {
            child.signal(SIGKILL)
            child.waitUntilExit()
        }
    }

    /// A clean stop of every server.
    func stopAll() {
        for index in servers.indices { stop(server: index) }
    }

    /// SIGKILL to every server, for cleanup.
    func kill() {
        for index in servers.indices { kill9(server: index) }
    }

    /// Waits until every running server answers `/healthz` with 200 and, in a cluster, all of
    /// them name the same JetStream meta leader (`/jsz`'s `meta_cluster.leader`).
    func waitUntilReady(timeout: Double = 30) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let started = processes.withLock { list in list.indices.filter { list[$0] != nil } }
            let running = started.filter { isRunning(server: $0) }
            if running.count < started.count { break }  // one died: its log says why
            if !running.isEmpty && running.allSatisfy({ isReady($0) }) {
                let leaders = Set(running.map { metaLeader($0) })
                if servers.count == 1 || (leaders.count == 1 && leaders.first! != nil) { return }
            }
            usleep(100_000)
        }
        let logs = servers.indices.map { "\(servers[$0].name): \(logText(server: $0).suffix(2000))" }.joined(separator: "\n")
        throw CounterpartError("the NATS servers did not get ready within \(timeout) s:\n\(logs)")
    }

    /// The JetStream meta leader one server knows of (nil: none yet, or standalone).
    func metaLeader(_ index: Int) -> String? {
        guard let json = monitor(index, "/jsz"),
            let meta = json["meta_cluster"] as? [String: Any],
            let leader = meta["leader"] as? String, !leader.isEmpty
        else { return nil }
        return leader
    }

    /// GET of a monitoring endpoint of one server, as a JSON object (nil when it does not answer).
    func monitor(_ index: Int, _ path: String) -> [String: Any]? {
        guard let reply = try? HTTPConnection(port: servers[index].monitorPort, timeout: 5).request("GET", path),
            reply.status == 200,
            let object = try? JSONSerialization.jsonObject(with: Data(reply.body.utf8)) as? [String: Any]
        else { return nil }
        return object
    }

    var logText: String { servers.indices.map { logText(server: $0) }.joined(separator: "\n") }

    func logText(server index: Int) -> String { (try? String(contentsOfFile: servers[index].logPath, encoding: .utf8)) ?? "" }

    // MARK: private

    private func launch(_ index: Int) throws {
        let server = servers[index]
        // stderr (its log) appended to the server's log file, across restarts.
        let descriptor = open(server.logPath, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw CounterpartError("cannot open \(server.logPath)") }
        let log = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        defer { try? log.close() }
        let child = ChildProcess()
        child.executableURL = URL(fileURLWithPath: NATSCluster.executable)
        child.arguments = ["-c", server.configPath]
        child.standardInput = FileHandle.nullDevice
        child.standardOutput = log
        child.standardError = log
        try child.run()
        processes.withLock { $0[index] = child }
    }

    /// Healthy, and in a cluster with a meta leader known to it.
    private func isReady(_ index: Int) -> Bool {
        guard isHealthy(index, jetStreamOnly: false) else { return false }
        return servers.count == 1 || metaLeader(index) != nil
    }

    private func isHealthy(_ index: Int, jetStreamOnly: Bool) -> Bool {
        let path = jetStreamOnly ? "/healthz?js-enabled-only=true" : "/healthz"
        guard let reply = try? HTTPConnection(port: servers[index].monitorPort, timeout: 5).request("GET", path) else { return false }
        return reply.status == 200
    }
}
