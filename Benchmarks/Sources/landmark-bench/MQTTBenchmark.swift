import Foundation
import Synchronization

/// `landmark-bench mqtt`: how many OwnTracks fixes a second `landmark-near serve --mqtt
/// --state` takes from a Mosquitto broker, end to end (target: >= 50,000), beside POST
/// /owntracks over HTTP with --state (wrk, one fix a request, as the app posts).
///
/// The broker (Debian's `mosquitto`, on a free loopback port) first learns serve's
/// persistent session (one short run subscribes); then `--messages` OwnTracks locations of
/// `--devices` devices driving in and out of Turtle Rock are queued for that session with
/// Debian's `mosquitto_pub -l` (QoS 1) while serve is away; then serve starts and the clock
/// runs from its spawn until its /metrics counts every message as a committed record: each one
/// read, decoded, run through the engine and committed to --state (and then acknowledged to
/// the broker).
enum MQTTBenchmark {
    static let usage =
        "landmark-bench mqtt [--messages 200000] [--devices 100] [--receive-maximum N (serve's default)] [--http-seconds 10] [--binary PATH] [--out Benchmarks/out]"
    static let target = 50_000.0

    static func run(_ arguments: [String]) throws(BenchError) {
        let options = try Options(arguments, allowed: ["messages", "devices", "receive-maximum", "http-seconds", "binary", "out"])
        let devices = try options.int("devices", default: 100)
        let perDevice = max(1, try options.int("messages", default: 200_000) / devices)
        let total = perDevice * devices
        let receiveMaximum = try options.int("receive-maximum", default: 0)
        let httpSeconds = try options.int("http-seconds", default: 10)
        var binary = options.string("binary", default: "")
        if binary.isEmpty { binary = WatchBenchmark.defaultBinary() }
        let out = options.string("out", default: "Benchmarks/out") + "/mqtt-bench"
        for tool in ["/usr/sbin/mosquitto", "/usr/bin/mosquitto_pub", "/usr/bin/wrk"]
        where !FileManager.default.isExecutableFile(atPath: tool) {
            throw BenchError("\(tool) is missing: run bash Scripts/setup.sh")
        }
        guard FileManager.default.isExecutableFile(atPath: binary) else {
            throw BenchError("no landmark-near binary at \(binary) (build it: swift build -c release --product landmark-near)")
        }
        try? FileManager.default.removeItem(atPath: out)
        try? FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)

        let broker = try Broker(directory: out)
        defer { broker.stop() }
        let url = "mqtt://127.0.0.1:\(broker.port)"
        let state = out + "/state.db"
        let tuning = receiveMaximum > 0 ? ["--mqtt-receive-maximum", String(receiveMaximum)] : []

        // The session: subscribed once, then away.
        let first = try Server(binary, ["serve", "--mqtt", url, "--state", state] + tuning, stdout: out + "/first.ndjson")
        try first.waitFor("mqtt: subscribed")
        _ = first.stop()

        // The messages, a file a device, as mosquitto_pub -l reads them.
        var files: [(topic: String, path: String)] = []
        for device in 0..<devices {
            let path = out + "/device-\(device).txt"
            var text = ""
            for step in 0..<perDevice {
                let angle = Double(step + device * 37) * 0.01
                let lat = 34.011286 + 0.15 * sin(angle)
                let lon = -116.166868 + 0.1 * sin(2 * angle)
                text += String(
                    format: #"{"_type":"location","tid":"ph","lat":%.6f,"lon":%.6f,"tst":%d,"acc":8,"batt":77}"#, lat, lon,
                    1_777_636_800 + step * 10)
                text += "\n"
            }
            try? text.write(toFile: path, atomically: false, encoding: .utf8)
            files.append(("owntracks/bench/d\(device)", path))
        }
        // One mosquitto_pub a device, all at once: each spends about 0.2 s of its own around its
        // messages (measured), which one after another would dominate.
        func publishAll() throws(BenchError) {
            var publishers: [Process] = []
            for file in files {
                publishers.append(
                    try launch(
                        "/usr/bin/mosquitto_pub", ["-h", "127.0.0.1", "-p", String(broker.port), "-q", "1", "-t", file.topic, "-l"],
                        stdin: file.path))
            }
            for publisher in publishers {
                publisher.waitUntilExit()
                guard publisher.terminationStatus == 0 else {
                    throw BenchError("mosquitto_pub failed (status \(publisher.terminationStatus))")
                }
            }
        }

        // Backlog: queued for the session while serve is away, device after device; then the
        // drain, timed from spawn until /metrics counts every message's record as committed
        // (the engine publishes its counts after each commit).
        try publishAll()
        let start = MonotonicClock.now()
        let server = try Server(
            binary, ["serve", "--mqtt", url, "--state", state, "--listen", "127.0.0.1:0"] + tuning, stdout: out + "/events.ndjson")
        let port = try server.waitForPort()
        let seconds = try waitForRecords(total, port: port, since: start)
        let notifications = metric("landmark_near_notifications_total", port: port)
        let summary = server.stop()
        let rate = Double(total) / seconds

        // Live: serve subscribed (a session of its own, a state of its own) while
        // mosquitto_pub publishes, timed from the first publish until every record is
        // committed. The broker holds at most the receive maximum unacknowledged.
        let live = try Server(
            binary, ["serve", "--mqtt", url, "--state", out + "/live.db", "--listen", "127.0.0.1:0"] + tuning,
            stdout: out + "/live.ndjson")
        let livePort = try live.waitForPort()
        try live.waitFor("mqtt: subscribed")
        let liveStart = MonotonicClock.now()
        try publishAll()
        let liveSeconds = try waitForRecords(total, port: livePort, since: liveStart)
        _ = live.stop()
        let liveRate = Double(total) / liveSeconds

        // POST /owntracks over HTTP, with --state too.
        let httpState = out + "/http.db"
        let http = try Server(binary, ["serve", "--listen", "127.0.0.1:0", "--state", httpState], stdout: out + "/http.ndjson")
        let httpPort = try http.waitForPort()
        let wrk = try capture(
            "/usr/bin/wrk",
            ["-t2", "-c64", "-d\(httpSeconds)s", "--latency", "-s", "Benchmarks/serve/owntracks.lua", "http://127.0.0.1:\(httpPort)"])
        _ = http.stop()
        guard let line = wrk.split(separator: "\n").last(where: { $0.hasPrefix("{\"requests\"") }),
            let result = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        else { throw BenchError("no result line from wrk:\n\(wrk)") }
        let httpRate = Double(result["ok"] as? Int ?? 0) / (result["seconds"] as? Double ?? Double(httpSeconds))

        print("| measure | value | target |")
        print("|---|---:|---|")
        print(
            String(
                format:
                    "| MQTT fixes/s end to end with --state (%d messages of %d devices queued by mosquitto_pub, QoS 1; receive maximum %@) | %.0f | >= %.0f %@ |",
                total, devices, receiveMaximum > 0 ? String(receiveMaximum) : "serve's default", rate, target,
                rate >= target ? "met" : "NOT MET"))
        print(String(format: "| time from spawn to the last message committed | %.2f s | |", seconds))
        print(
            String(
                format:
                    "| MQTT fixes/s live with --state (serve subscribed while mosquitto_pub publishes; first publish to last commit) | %.0f | |",
                liveRate))
        print("| notifications | \(notifications) | |")
        print(
            String(
                format: "| POST /owntracks fixes/s over HTTP with --state (wrk: 64 connections, 2 threads, %d s) | %.0f | |", httpSeconds,
                httpRate))
        print("| summary of the MQTT run | \(summary.split(separator: "\n").last(where: { $0.contains("fixes read") }) ?? "") | |")
    }

    /// Seconds from `since` until serve's /metrics counts `total` committed records.
    private static func waitForRecords(_ total: Int, port: Int, since: Double) throws(BenchError) -> Double {
        var counted = 0
        while counted < total {
            usleep(5_000)
            counted = metric("landmark_near_records_total", port: port)
            if MonotonicClock.now() - since > 600 { throw BenchError("only \(counted) of \(total) records after 10 minutes") }
        }
        return MonotonicClock.now() - since
    }

    /// A counter of serve's /metrics (the sum over its labels); 0 when unreadable.
    private static func metric(_ name: String, port: Int) -> Int {
        guard let body = httpGet(port: port, path: "/metrics") else { return 0 }
        var total = 0
        for line in body.split(separator: "\n") where line.hasPrefix(name + " ") || line.hasPrefix(name + "{") {
            total += Int(line.split(separator: " ").last ?? "") ?? 0
        }
        return total
    }

    private static func capture(_ executable: String, _ arguments: [String]) throws(BenchError) -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        do { try process.run() } catch { throw BenchError("cannot run \(executable): \(error)") }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    private static func launch(_ executable: String, _ arguments: [String], stdin: String) throws(BenchError) -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardInput = FileHandle(forReadingAtPath: stdin)
        process.standardOutput = FileHandle.nullDevice
        do { try process.run() } catch { throw BenchError("cannot run \(executable): \(error)") }
        return process
    }
}

/// A Mosquitto broker for the benchmark: a free loopback port, no persistence, no limit on the
/// messages it queues for a session.
private final class Broker {
    let port: Int
    private let process = Process()

    init(directory: String) throws(BenchError) {
        port = try freeLoopbackPort()
        let config = directory + "/mosquitto.conf"
        var lines = ["listener \(port) 127.0.0.1", "allow_anonymous true", "max_queued_messages 0", "log_dest none"]
        if getuid() == 0 { lines.append("user root") }
        try? (lines.joined(separator: "\n") + "\n").write(toFile: config, atomically: true, encoding: .utf8)
        process.executableURL = URL(fileURLWithPath: "/usr/sbin/mosquitto")
        process.arguments = ["-c", config]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { throw BenchError("cannot start mosquitto: \(error)") }
        for _ in 0..<500 {
            if httpGet(port: port, path: "/", connectOnly: true) != nil { return }
            usleep(10_000)
        }
        throw BenchError("mosquitto did not start on port \(port)")
    }

    func stop() {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }
}

/// `landmark-near serve` for the benchmark, its stderr gathered.
private final class Server: Sendable {
    private let process: Process
    private let errors = Mutex(Data())

    init(_ binary: String, _ arguments: [String], stdout: String) throws(BenchError) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments
        _ = FileManager.default.createFile(atPath: stdout, contents: nil)
        process.standardOutput = FileHandle(forWritingAtPath: stdout)
        let pipe = Pipe()
        process.standardError = pipe
        do { try process.run() } catch { throw BenchError("cannot start \(binary): \(error)") }
        self.process = process
        let handle = pipe.fileHandleForReading
        Thread.detachNewThread { [self] in
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                errors.withLock { $0.append(chunk) }
            }
        }
    }

    var stderr: String { String(decoding: errors.withLock { $0 }, as: UTF8.self) }

    func waitFor(_ text: String) throws(BenchError) {
        for _ in 0..<3000 {
            if stderr.contains(text) { return }
            usleep(5_000)
        }
        throw BenchError("serve never said '\(text)': \(stderr)")
    }

    func waitForPort() throws(BenchError) -> Int {
        for _ in 0..<3000 {
            if let range = stderr.range(of: #"listening on http://127\.0\.0\.1:\d+"#, options: .regularExpression) {
                return Int(stderr[range].split(separator: ":").last ?? "") ?? 0
            }
            usleep(2_000)
        }
        throw BenchError("serve did not listen: \(stderr)")
    }

    /// SIGTERM, and its stderr once it ended.
    func stop() -> String {
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        usleep(50_000)
        return stderr
    }
}

private func freeLoopbackPort() throws(BenchError) -> Int {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(descriptor) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0
        }
    }
    guard bound else { throw BenchError("cannot find a free port") }
    return Int(UInt16(bigEndian: address.sin_port))
}

/// A plain HTTP/1.0 GET on 127.0.0.1 (the body), or with `connectOnly` whether anything
/// listens there ("" then); nil when nothing answers.
private func httpGet(port: Int, path: String, connectOnly: Bool = false) -> String? {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = UInt16(port).bigEndian
    let connected = withUnsafePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
        }
    }
    guard connected else { return nil }
    if connectOnly { return "" }
    let request = Array("GET \(path) HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n".utf8)
    guard request.withUnsafeBytes({ write(descriptor, $0.baseAddress, $0.count) }) == request.count else { return nil }
    var response: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while true {
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        if count <= 0 { break }
        response += buffer.prefix(count)
    }
    let text = String(decoding: response, as: UTF8.self)
    guard let split = text.range(of: "\r\n\r\n") else { return nil }
    return String(text[split.upperBound...])
}
