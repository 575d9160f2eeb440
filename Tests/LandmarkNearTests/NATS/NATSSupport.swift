import Foundation
import Testing

@testable import LandmarkNearCore

/// SPEC 18's partition of a device: FNV-1a 32-bit (offset basis 2166136261, prime 16777619)
/// over the UTF-8 bytes of the device name, modulo the partition count. Written here from the
/// spec, apart from the tool's own, as Tests/Counterparts/nats_counterpart.py writes it again.
func fnv1a32(_ bytes: some Sequence<UInt8>) -> UInt32 {
    var hash: UInt32 = 2_166_136_261
    for byte in bytes {
        hash ^= UInt32(byte)
        hash = hash &* 16_777_619
    }
    return hash
}

func natsPartition(of device: String, partitions: Int) -> Int { Int(fnv1a32(device.utf8) % UInt32(partitions)) }

/// The fixes the NATS tests publish, from several sources read as `watch` reads them: a
/// generated OwnTracks-style stream (seven devices in and out of Turtle Rock and St. Mary Lake,
/// names with `/`), SparkLoad's devices (names that differ only in Unicode normalisation, with
/// `/` and `"`, untimed and stale fixes, a CSV file) and real traces from Fixtures/Fixes
/// (OwnTracks, GPSLogger CSV, gpsd JSON and NMEA; their fixes without a device are `default`'s).
struct NATSLoad: Sendable {
    /// The input files, in order.
    var files: [String]
    /// `landmark-near fixes` over the files: what `publish` publishes, one message a line.
    var fixLines: [String]
    /// The device of each fix line.
    var devices: [String]
    /// The records `fixes` read from the files (its summary's `R records read`).
    var records: Int

    static let traces = ["owntracks.ndjson", "gpslogger.csv", "gpsd/gpspipe-w.ndjson", "gpsd/gpsfake-drive.nmea"]

    static func make(in directory: URL, steps: Int = 600, sparkDevices: Int = 16, sparkSeconds: Int = 120) async throws -> NATSLoad {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let stream = directory.appendingPathComponent("owntracks-stream.ndjson")
        try (OwnTracksStream(steps: steps).messages.compactMap(\.reference).joined(separator: "\n") + "\n")
            .write(to: stream, atomically: true, encoding: .utf8)
        let spark = try SparkLoad.write(
            into: directory.appendingPathComponent("spark-load"), devices: sparkDevices, seconds: sparkSeconds, seed: 18)
        let fixtures = repositoryRoot.appendingPathComponent("Tests/LandmarkNearTests/Fixtures/Fixes")
        let sparkFiles = try SparkLoad.files(of: spark.path)
        let files = [stream.path] + sparkFiles + traces.map { fixtures.appendingPathComponent($0).path }
        let result = try await runTool(["fixes"] + files, timeout: 120)
        guard result.status == 0,
            let summary = result.stderr.range(of: #"landmark-near fixes: \d+ records read"#, options: .regularExpression),
            let records = Int(result.stderr[summary].split(separator: " ")[2])
        else { throw CounterpartError("fixes failed (\(result.status)): \(result.stderr)") }
        let lines = result.stdout.split(separator: "\n").map(String.init)
        let devices = try lines.map { line in
            guard let device = (try? JSONParser.parse(line))?["device"]?.stringValue else {
                throw CounterpartError("a fixes line without a device: \(line)")
            }
            return device
        }
        return NATSLoad(files: files, fixLines: lines, devices: devices, records: records)
    }

    /// The fix lines as one NDJSON text.
    var ndjson: String { fixLines.joined(separator: "\n") + "\n" }

    /// How many of the fixes fall in `partitions` of `count`.
    func messages(in partitions: Set<Int>, of count: Int) -> Int {
        devices.count { partitions.contains(natsPartition(of: $0, partitions: count)) }
    }

    /// What one `watch` prints over the input files with `options`.
    func reference(_ options: [String] = []) async throws -> [String] {
        let result = try await runTool(["watch", "-q"] + files + options, timeout: 120)
        guard result.status == 0 else { throw CounterpartError("watch failed (\(result.status)): \(result.stderr)") }
        return result.stdout.split(separator: "\n").map(String.init)
    }

    /// The fix lines in `count` NDJSON files of about the same size (for a publisher that
    /// publishes a little at a time while `serve` consumes).
    func writeChunks(_ count: Int, into directory: URL) throws -> [String] {
        let size = (fixLines.count + count - 1) / count
        return try stride(from: 0, to: fixLines.count, by: size).enumerated().map { index, start in
            let file = directory.appendingPathComponent("chunk-\(index).ndjson")
            try (fixLines[start..<min(start + size, fixLines.count)].joined(separator: "\n") + "\n")
                .write(to: file, atomically: true, encoding: .utf8)
            return file.path
        }
    }

    func writeNDJSON(to file: URL) throws { try ndjson.write(to: file, atomically: true, encoding: .utf8) }
}

/// Event lines of `watch`/`serve`, compared per device (by the name's UTF-8 bytes: "café" and
/// "cafe\u{301}" are two devices) and by notification (event, device, landmark id, fix time).
enum EventLines {
    struct Key: Hashable, CustomStringConvertible {
        var event: String
        var device: [UInt8]
        var landmark: Int
        var time: String
        var description: String { "\(event) \(String(decoding: device, as: UTF8.self)) \(landmark) \(time)" }
    }

    static func device(of line: String) -> [UInt8]? {
        (try? JSONParser.parse(line))?["device"]?.stringValue.map { Array($0.utf8) }
    }

    static func key(of line: String) -> Key? {
        guard let value = try? JSONParser.parse(line), let device = value["device"]?.stringValue else { return nil }
        return Key(
            event: value["event"]?.stringValue ?? "", device: Array(device.utf8),
            landmark: value["landmark"]?["id"]?.integer ?? -1, time: value["time"]?.stringValue ?? "")
    }

    static func byDevice(_ lines: [String]) -> [[UInt8]: [String]] {
        var grouped: [[UInt8]: [String]] = [:]
        for line in lines { grouped[device(of: line) ?? [], default: []].append(line) }
        return grouped
    }

    /// The complete lines of a killed process's stdout (a line cut by the kill is left out).
    static func completeLines(_ stdout: String) -> [String] {
        var lines = stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        lines.removeLast()  // "" after the last newline, or the cut line
        return lines.filter { !$0.isEmpty }
    }
}

/// The message count of `serve`'s `/metrics` lines named `name` (-1 when missing), as `metric`
/// reads them; kept here so a NATS test reads as the MQTT ones do.
func natsMetric(_ name: String, _ server: ServeProcess) -> Int { metric(name, port: server.port) }

/// Starts `serve --nats ...` (listening on a free port for `/metrics` and `/healthz`) and waits
/// until it consumes every partition of `partitions`: one stderr line
/// `nats: consuming STREAM.P from sequence S` each.
func startNATSServe(_ arguments: [String], stream: String, partitions: [Int], timeout: Double = 45) throws -> ServeProcess {
    let server = try ServeProcess(arguments, ready: "nats: consuming", startTimeout: timeout)
    let consuming = eventually(timeout: timeout) { Set(consumingSequences(server.stderr, stream: stream).keys) == Set(partitions) }
    guard consuming else {
        server.kill()
        throw CounterpartError("serve did not consume partitions \(partitions) of \(stream): \(server.stderr)")
    }
    return server
}

/// The `nats: consuming STREAM.P from sequence S` lines of a stderr text: P -> S (the last line
/// of each partition).
func consumingSequences(_ stderr: String, stream: String) -> [Int: Int] {
    var sequences: [Int: Int] = [:]
    let prefix = "nats: consuming \(stream)."
    for line in stderr.split(separator: "\n") {
        guard let range = line.range(of: prefix) else { continue }
        let words = line[range.upperBound...].split(separator: " ")
        guard words.count >= 4, words[1] == "from", words[2] == "sequence", let partition = Int(words[0]),
            let sequence = Int(words[3])
        else { continue }
        sequences[partition] = sequence
    }
    return sequences
}

/// The port of serve's `nats: connected to nats://127.0.0.1:PORT` line (the last one).
func connectedPort(_ stderr: String) -> Int? {
    let lines = stderr.split(separator: "\n").filter {
        $0.contains("nats: connected to nats://127.0.0.1:") || $0.contains("nats: reconnected to nats://127.0.0.1:")
    }
    return lines.last?.split(separator: ":").last.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
}

/// `landmark-near publish --nats URLS --nats-stream STREAM --partitions N [--replicas R] FILE...`.
func natsPublish(
    _ urls: String, stream: String, partitions: Int, replicas: Int? = nil, files: [String] = [], stdin: String? = nil,
    extra: [String] = [], timeout: Double = 120
) async throws -> ToolResult {
    var arguments = ["publish", "--nats", urls, "--nats-stream", stream, "--partitions", String(partitions)]
    if let replicas { arguments += ["--replicas", String(replicas)] }
    return try await runTool(arguments + extra + files, stdin: stdin, timeout: timeout)
}

/// One message of a stream, as `nats_counterpart.py dump` prints it.
struct NATSMessage: Sendable, Equatable {
    var seq: Int
    var subject: String
    var data: String
}

/// Every message a stream holds, oldest first (read by nats-py, not by the tool).
func natsDump(_ urls: String, stream: String) async throws -> [NATSMessage] {
    let result = try await runCounterpart("nats_counterpart.py", ["dump", urls, stream], timeout: 120)
    guard result.status == 0 else { throw CounterpartError("nats_counterpart.py dump: \(result.stderr)") }
    return try result.stdout.split(separator: "\n").map { line in
        guard let value = try? JSONParser.parse(String(line)), let seq = value["seq"]?.integer,
            let subject = value["subject"]?.stringValue, let data = value["data"]?.stringValue
        else { throw CounterpartError("nats_counterpart.py dump printed \(line)") }
        return NATSMessage(seq: seq, subject: subject, data: data)
    }
}

/// A stream's configuration and state, as `nats_counterpart.py info` reads them.
struct NATSStreamInfo: Sendable {
    var subjects: [String]
    var replicas: Int
    var storage: String
    var messages: Int
    var lastSequence: Int
    var leader: String?
    var peers: [String]
}

func natsStreamInfo(_ urls: String, stream: String) async throws -> NATSStreamInfo {
    let result = try await runCounterpart("nats_counterpart.py", ["info", urls, stream], timeout: 60)
    guard result.status == 0, let value = try? JSONParser.parse(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) else {
        throw CounterpartError("nats_counterpart.py info: \(result.stderr)")
    }
    return NATSStreamInfo(
        subjects: value["subjects"]?.arrayValue?.compactMap(\.stringValue) ?? [],
        replicas: value["replicas"]?.integer ?? -1,
        storage: value["storage"]?.stringValue ?? "",
        messages: value["messages"]?.integer ?? -1,
        lastSequence: value["last_seq"]?.integer ?? -1,
        leader: value["leader"]?.stringValue,
        peers: value["cluster_replicas"]?.arrayValue?.compactMap(\.stringValue) ?? [])
}

/// Publishes `text` as is to `subject` with a third-party client (nats-py, JetStream publish);
/// the stream sequence it got.
func natsPublishRaw(_ urls: String, subject: String, _ text: String) async throws -> Int {
    let result = try await runCounterpart("nats_counterpart.py", ["publish-raw", urls, subject, text], timeout: 60)
    let sequence = result.stdout.split(separator: " ").last.flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    guard result.status == 0, let sequence else {
        throw CounterpartError("nats_counterpart.py publish-raw: \(result.stdout) \(result.stderr)")
    }
    return sequence
}

/// Where `lines` and `expected` differ per device (nil when every device has the same lines in
/// the same order), for a failure message that names the device.
func perDeviceDifference(_ lines: [String], _ expected: [String]) -> String? {
    let got = EventLines.byDevice(lines)
    let wanted = EventLines.byDevice(expected)
    let devices = Set(got.keys).union(wanted.keys).sorted { $0.lexicographicallyPrecedes($1) }
    for device in devices where got[device] != wanted[device] {
        let mine = got[device] ?? []
        let theirs = wanted[device] ?? []
        let common = min(mine.count, theirs.count)
        let index = (0..<common).first { mine[$0] != theirs[$0] } ?? common
        return "device \(String(decoding: device, as: UTF8.self)): \(mine.count) lines, watch \(theirs.count); line \(index + 1): "
            + "\(index < mine.count ? mine[index] : "(none)") vs watch's \(index < theirs.count ? theirs[index] : "(none)")"
    }
    return nil
}
