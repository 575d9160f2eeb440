import Foundation
import Synchronization

/// `landmark-bench serve`: HTTP capacity of `landmark-near serve` (docs/reference/serve.md: >= 20,000 fixes/s
/// over HTTP/1.1 keep-alive with 64 concurrent clients). Debian's `wrk` drives it with
/// `Benchmarks/serve/osmand.lua` (one Traccar Client OsmAnd fix a request, 1,000 devices per
/// wrk thread driving in and out of Turtle Rock's radius). Afterwards the server's own counters
/// (`GET /metrics`) must show as many processed records as 200 answers, and its summary after
/// SIGTERM as many fixes read.
enum ServeBenchmark {
    static let usage =
        "landmark-bench serve [--seconds 10] [--connections 64] [--threads 2] [--server-threads N (serve's default)] [--state yes|no] [--binary PATH] [--out Benchmarks/out]"
    static let target = 20_000.0

    static func run(_ arguments: [String]) throws(BenchError) {
        let options = try Options(arguments, allowed: ["seconds", "connections", "threads", "server-threads", "state", "binary", "out"])
        let seconds = try options.int("seconds", default: 10)
        let connections = try options.int("connections", default: 64)
        let wrkThreads = try options.int("threads", default: 2)
        // 0: serve's own default (--threads not given).
        let serverThreads = try options.int("server-threads", default: 0)
        var binary = options.string("binary", default: "")
        if binary.isEmpty { binary = WatchBenchmark.defaultBinary() }
        let out = options.string("out", default: "Benchmarks/out")
        let script = "Benchmarks/serve/osmand.lua"
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/wrk") else {
            throw BenchError("wrk is missing: run bash Scripts/setup.sh")
        }
        guard FileManager.default.fileExists(atPath: script) else { throw BenchError("\(script) is missing: run from the repository root") }
        guard FileManager.default.isExecutableFile(atPath: binary) else {
            throw BenchError("no landmark-near binary at \(binary) (build it: swift build -c release --product landmark-near)")
        }
        try? FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        let eventsPath = out + "/serve-events.ndjson"
        let withState = options.string("state", default: "no") == "yes"
        let statePath = out + "/serve-bench.db"
        for suffix in ["", "-wal", "-shm", "-lock"] { try? FileManager.default.removeItem(atPath: statePath + suffix) }

        let server = Process()
        server.executableURL = URL(fileURLWithPath: binary)
        server.arguments =
            ["serve", "--listen", "127.0.0.1:0", "--max-connections-per-client", String(max(64, connections))]
            + (serverThreads > 0 ? ["--threads", String(serverThreads)] : [])
            + (withState ? ["--state", statePath] : [])
        _ = FileManager.default.createFile(atPath: eventsPath, contents: nil)
        server.standardOutput = FileHandle(forWritingAtPath: eventsPath)
        let errors = Pipe()
        server.standardError = errors
        do { try server.run() } catch { throw BenchError("cannot start \(binary): \(error)") }
        defer { if server.isRunning { kill(server.processIdentifier, SIGKILL) } }
        let stderrText = StderrCollector(errors.fileHandleForReading)
        var port: Int?
        for _ in 0..<500 where port == nil {
            if let range = stderrText.text.range(of: #"127\.0\.0\.1:\d+"#, options: .regularExpression) {
                port = Int(stderrText.text[range].split(separator: ":")[1])
            } else {
                usleep(10_000)
            }
        }
        guard let port else { throw BenchError("serve did not start: \(stderrText.text)") }

        let url = "http://127.0.0.1:\(port)"
        let wrk = try capture("/usr/bin/wrk", ["-t\(wrkThreads)", "-c\(connections)", "-d\(seconds)s", "--latency", "-s", script, url])
        guard let jsonLine = wrk.split(separator: "\n").last(where: { $0.hasPrefix("{\"requests\"") }),
            let result = try? JSONSerialization.jsonObject(with: Data(jsonLine.utf8)) as? [String: Any]
        else {
            throw BenchError("no result line from wrk:\n\(wrk)")
        }
        // Requests still queued when wrk closed its connections are processed after it ends:
        // read the counters once they stand still.
        var metrics = try capture("/usr/bin/curl", ["-s", url + "/metrics"])
        var earlierReads = 0
        for _ in 0..<50 {
            earlierReads += 1
            usleep(200_000)
            let again = try capture("/usr/bin/curl", ["-s", url + "/metrics"])
            let settled =
                again.split(separator: "\n").first { $0.hasPrefix("landmark_near_records_total ") }
                == metrics.split(separator: "\n").first { $0.hasPrefix("landmark_near_records_total ") }
            metrics = again
            if settled { break }
        }
        func metric(_ name: String) -> Int {
            for line in metrics.split(separator: "\n") where line.hasPrefix(name + " ") {
                return Int(line.split(separator: " ").last ?? "") ?? -1
            }
            return -1
        }
        let processed = metric("landmark_near_records_total")
        // Less the 200s of the earlier /metrics reads.
        let answered200 = metric("landmark_near_http_responses_total{code=\"200\"}") - earlierReads
        let notifications = metric("landmark_near_notifications_total")
        kill(server.processIdentifier, SIGTERM)
        server.waitUntilExit()
        let summary = stderrText.text.split(separator: "\n").last(where: { $0.contains("fixes read") }).map(String.init) ?? ""
        let fixesRead = Int(summary.split(separator: ":").dropFirst().first?.split(separator: " ").first ?? "") ?? -1

        let ok = result["ok"] as? Int ?? 0
        let wall = result["seconds"] as? Double ?? Double(seconds)
        let rate = Double(ok) / wall
        let p50 = Double(result["p50_us"] as? Int ?? 0) / 1000
        let p99 = Double(result["p99_us"] as? Int ?? 0) / 1000
        let nonOK = (result["other"] as? Int ?? 0) + (result["errors"] as? Int ?? 0)
        print(wrk)
        print("| measure | value | target |")
        print("|---|---:|---|")
        print(
            String(
                format:
                    "| fixes/s over HTTP%@ (wrk: %d keep-alive connections, %d threads, %d s; Traccar OsmAnd POSTs) | %.0f | >= %.0f %@ |",
                withState ? " with --state" : "", connections, wrkThreads, seconds, rate, target, rate >= target ? "met" : "NOT MET"))
        print(String(format: "| latency p50 / p99 | %.2f ms / %.2f ms | |", p50, p99))
        print("| 200 answers seen by wrk / non-200 or socket errors | \(ok) / \(nonOK) | all 200 |")
        print(
            "| records processed (/metrics) / 200 answers sent (/metrics) | \(processed) / \(answered200) | equal \(processed == answered200 ? "yes" : "NO") |"
        )
        print("| fixes read (summary after SIGTERM) | \(fixesRead) | = records processed \(fixesRead == processed ? "yes" : "NO") |")
        print("| notifications | \(notifications) | |")
        print("| 200s sent but not counted by wrk (in flight when it stopped) | \(answered200 - ok) | <= \(connections) |")
        if processed != answered200 || fixesRead != processed { throw BenchError("processed fixes and 200 answers differ") }
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
}

/// Reads a child's stderr on a background thread.
private final class StderrCollector: Sendable {
    private let data = Mutex(Data())

    init(_ handle: FileHandle) {
        Thread.detachNewThread { [self] in
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                data.withLock { $0.append(chunk) }
            }
        }
    }

    var text: String { String(decoding: data.withLock { $0 }, as: UTF8.self) }
}
