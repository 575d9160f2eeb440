import Foundation

/// `landmark-bench push`: does a slow APNs slow `watch` down? The 1M-fix replay
/// (`fixes.ndjson`, 10k devices, the cities catalog) runs through the release `landmark-near
/// watch --push apns`, every device with one token, against the test fake APNs
/// (Tests/Counterparts/fake_apns.py, from the `.venv` of Scripts/setup.sh) answering each
/// request after `--delay` seconds. The figure is the reading rate: fixes over the time from
/// spawn until the child has taken the whole input from its stdin pipe (the bench writes the
/// file into the pipe; the last write returns when at most a pipe buffer, ~1,000 fixes, is
/// left). The same run without `--push` gives the baseline. The total time (deliveries drained)
/// and the summary's delivery counts go in the note.
enum PushBenchmark {
    static let usage = "landmark-bench push [--delay 0.5] [--binary PATH] [--out Benchmarks/out]"

    static func run(_ arguments: [String]) throws(BenchError) {
        let options = try Options(arguments, allowed: ["delay", "binary", "out"])
        let layout = DataLayout(directory: options.string("out", default: "Benchmarks/out"))
        let delay = options.string("delay", default: "0.5")
        var binary = options.string("binary", default: "")
        if binary.isEmpty { binary = WatchBenchmark.defaultBinary() }
        let python = ".venv/bin/python"
        let fake = "Tests/Counterparts/fake_apns.py"
        guard FileManager.default.isExecutableFile(atPath: python) else {
            throw BenchError("\(python) is missing: run bash Scripts/setup.sh (from the repository root)")
        }
        for path in [layout.fixesNDJSON, layout.citiesCatalog] where !FileManager.default.fileExists(atPath: path) {
            throw BenchError("\(path) is missing: run `landmark-bench generate` first")
        }
        let scratch = layout.directory + "/push-run"
        try? FileManager.default.removeItem(atPath: scratch)
        try? FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        let key = scratch + "/AuthKey_BENCH00001.p8"
        guard (try? runQuietly(python, [fake, "keygen", key])) == 0 else { throw BenchError("fake_apns.py keygen failed") }
        let devices = try deviceNames(layout.fixesNDJSON)
        var profiles: [String: Any] = [:]
        for (n, device) in devices.enumerated() {
            profiles[device] = ["apnsTokens": [String(format: "%064x", n + 1)]]
        }
        do {
            try JSONSerialization.data(withJSONObject: profiles).write(to: URL(fileURLWithPath: scratch + "/profiles.json"))
        } catch {
            throw BenchError("cannot write the profiles: \(error)")
        }

        let server = Process()
        server.executableURL = URL(fileURLWithPath: python)
        server.arguments = [
            fake, "serve", "--dir", scratch, "--key", key, "--key-id", "BENCH00001", "--team-id", "TEAM000001",
            "--topic", "com.example.bench", "--delay", delay,
        ]
        let serverOutput = Pipe()
        server.standardOutput = serverOutput
        server.standardError = FileHandle.nullDevice
        do { try server.run() } catch { throw BenchError("cannot start the fake APNs: \(error)") }
        defer {
            kill(server.processIdentifier, SIGKILL)
            server.waitUntilExit()
        }
        let first = String(decoding: serverOutput.fileHandleForReading.availableData, as: UTF8.self)
        guard first.hasPrefix("port "), let port = Int(first.dropFirst(5).prefix { $0.isNumber }) else {
            throw BenchError("the fake APNs did not start")
        }

        let common = ["watch", "--format", "ndjson", "--landmarks", layout.citiesCatalog, "--profiles", scratch + "/profiles.json"]
        let push = [
            "--push", "apns", "--apns-key", key, "--apns-key-id", "BENCH00001", "--apns-team-id", "TEAM000001",
            "--apns-topic", "com.example.bench", "--apns-url", "https://127.0.0.1:\(port)", "--apns-ca", scratch + "/ca.pem",
        ]
        let fixes = WatchBenchmark.manifestFixCount(layout: layout)
        let baseline = try feed(binary, common, input: layout.fixesNDJSON, stderrPath: scratch + "/baseline.err")
        Stderr.line(
            String(
                format: "watch, no push: input taken in %.2f s (%.0f fixes/s), %.2f s in all, %.2f s CPU", baseline.read,
                Double(fixes) / baseline.read, baseline.total, baseline.cpu))
        let slow = try feed(binary, common + push, input: layout.fixesNDJSON, stderrPath: scratch + "/push.err")
        let summary = slow.stderr.split(separator: "\n").last.map(String.init) ?? ""
        Stderr.line(
            String(
                format: "watch --push apns, fake answering after %@ s: input taken in %.2f s (%.0f fixes/s), %.2f s in all, %.2f s CPU",
                delay, slow.read, Double(fixes) / slow.read, slow.total, slow.cpu))
        print("watch --push apns summary: \(summary)")
        let deliveries = summary.range(of: "deliveries: ").map { String(summary[$0.lowerBound...]) } ?? "no delivery counts"
        let results = [
            Measurement(
                key: "push.baseline", what: "watch reading rate, no push", dataset: "NDJSON, 10k devices",
                value: Double(fixes) / baseline.read, unit: "fixes/s",
                note: String(
                    format: "%@ fixes, one run; %.2f s CPU (%.0f fixes per CPU second)", fixes.grouped, baseline.cpu,
                    Double(fixes) / baseline.cpu)),
            Measurement(
                key: "push.slow", what: "watch reading rate, --push apns to a slow APNs", dataset: "NDJSON, 10k devices",
                value: Double(fixes) / slow.read, unit: "fixes/s",
                note: String(
                    format: "fake APNs answers after %@ s; %.1f s until every delivery ended; %.2f s CPU; %@", delay, slow.total, slow.cpu,
                    deliveries)),
        ]
        print(ReportTable.markdown(ours: results, peers: PeerResults.load(path: layout.peersResults), prefixes: ["push."]))
        BenchResults.merge(results, prefix: "push.", path: layout.benchResults)
    }

    /// Runs the binary with the file written into its stdin pipe; times the spawn-to-last-write
    /// and spawn-to-exit spans.
    static func feed(_ binary: String, _ arguments: [String], input: String, stderrPath: String) throws(BenchError) -> (
        read: Double, total: Double, cpu: Double, stderr: String
    ) {
        let before = childCPUSeconds()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments
        let stdin = Pipe()
        process.standardInput = stdin
        process.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
        _ = FileManager.default.createFile(atPath: stderrPath, contents: nil)
        process.standardError = FileHandle(forWritingAtPath: stderrPath)
        guard let file = FileHandle(forReadingAtPath: input) else { throw BenchError("cannot read \(input)") }
        let start = MonotonicClock.now()
        do { try process.run() } catch { throw BenchError("cannot start \(binary): \(error)") }
        while true {
            let chunk = file.readData(ofLength: 1 << 20)
            if chunk.isEmpty { break }
            stdin.fileHandleForWriting.write(chunk)
        }
        try? stdin.fileHandleForWriting.close()
        let read = MonotonicClock.now() - start
        process.waitUntilExit()
        let total = MonotonicClock.now() - start
        let cpu = childCPUSeconds() - before
        let stderr = (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? ""
        guard process.terminationStatus == 0 || process.terminationStatus == 65 else {
            throw BenchError("landmark-near watch exited \(process.terminationStatus): \(stderr.suffix(400))")
        }
        return (read, total, cpu, stderr)
    }

    /// User + system seconds of the children reaped so far (Foundation reaps in this process).
    static func childCPUSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_CHILDREN.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }

    /// The devices of the replay: interleaved by second, so the first repeat ends the list.
    static func deviceNames(_ path: String) throws(BenchError) -> [String] {
        guard let handle = FileHandle(forReadingAtPath: path) else { throw BenchError("cannot read \(path)") }
        var names: [String] = []
        var seen: Set<String> = []
        var buffer = ""
        while true {
            let chunk = handle.readData(ofLength: 1 << 20)
            if chunk.isEmpty { return names }
            buffer += String(decoding: chunk, as: UTF8.self)
            var lines = buffer.split(separator: "\n", omittingEmptySubsequences: false)
            buffer = String(lines.removeLast())
            for line in lines {
                guard let start = line.range(of: "\"device\":\""), let end = line[start.upperBound...].firstIndex(of: "\"") else {
                    continue
                }
                let name = String(line[start.upperBound..<end])
                if !seen.insert(name).inserted { return names }
                names.append(name)
            }
        }
    }

    private static func runQuietly(_ executable: String, _ arguments: [String]) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }
}
