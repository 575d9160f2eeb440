import Foundation

/// `landmark-bench watch`: end-to-end fixes per second of the `landmark-near watch` release
/// binary run as a process (stdin from a generated file, stdout to /dev/null), its peak RSS,
/// and memory per device from the 1k / 10k / 100k device loads.
enum WatchBenchmark {
    static let usage =
        "landmark-bench watch [--load ndjson|csv|nmea|gpx|state|json-catalog|devices|distinct|favorites|escaping|all] [--reps 3] [--binary PATH] [--out Benchmarks/out]"

    struct Load {
        var key: String
        var label: String
        var path: String
        var format: String
        /// With a fresh `--state` database for each run.
        var stateful = false
        /// More `watch` options (after `--landmarks`).
        var arguments: [String] = []
        /// Fixes in the file; nil: the manifest's count.
        var fixes: Int?
        /// The catalog; nil: the cities CSV (`landmarks-cities.csv`).
        var catalog: String?
    }

    static func run(_ arguments: [String]) throws(BenchError) {
        let options = try Options(arguments, allowed: ["load", "reps", "binary", "out"])
        let layout = DataLayout(directory: options.string("out", default: "Benchmarks/out"))
        let measurements = try measure(
            layout: layout, load: options.string("load", default: "all"),
            reps: try options.int("reps", default: 3), binary: options.string("binary", default: ""))
        guard let measurements else { return }
        let peers = PeerResults.load(path: layout.peersResults)
        print(ReportTable.matrix(ours: measurements, peers: peers, prefixes: ["watch."]))
        print("\nDetails:\n")
        print(ReportTable.markdown(ours: measurements, peers: peers, prefixes: ["watch."]))
        BenchResults.merge(measurements, prefix: "watch.", path: layout.benchResults)
    }

    /// The `landmark-near` next to this executable (both are built into `<scratch>/release/`).
    static func defaultBinary() -> String {
        let me = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return (me as NSString).deletingLastPathComponent + "/landmark-near"
    }

    /// Why `watch` cannot be measured, or nil when it can: the binary must exist and answer a
    /// one-fix NDJSON stream with exit status 0 (or 65, some records skipped).
    static func unavailableReason(binary: String, scratch: String) -> String? {
        guard FileManager.default.isExecutableFile(atPath: binary) else {
            return "no landmark-near binary at \(binary) (build it: swift build -c release --product landmark-near)"
        }
        let probe = scratch + "/probe.ndjson"
        _ = FileManager.default.createFile(
            atPath: probe, contents: Data(#"{"device":"d1","lat":34.0,"lon":-116.0,"time":"2026-05-01T12:00:00Z"}"#.utf8 + [0x0A]))
        guard
            let outcome = try? ChildProcess.run(binary, ["watch", "--format", "ndjson"], stdin: probe, stderrPath: scratch + "/probe.err")
        else {
            return "cannot start \(binary)"
        }
        guard outcome.status == 0 || outcome.status == 65 else {
            let line = outcome.stderr.split(separator: "\n").first.map(String.init) ?? ""
            return "`landmark-near watch` exits \(outcome.status) on a one-fix stream: \(line)"
        }
        return nil
    }

    static func measure(layout: DataLayout, load: String, reps: Int, binary: String) throws(BenchError) -> [Measurement]? {
        let binary = binary.isEmpty ? defaultBinary() : binary
        let scratch = layout.directory + "/watch-run"
        try? FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        if let reason = unavailableReason(binary: binary, scratch: scratch) {
            print("watch not available: \(reason)")
            return nil
        }
        let single = [
            Load(key: "ndjson", label: "NDJSON, 10k devices", path: layout.fixesNDJSON, format: "ndjson"),
            Load(key: "csv", label: "CSV, 10k devices", path: layout.fixesCSV, format: "csv"),
            Load(key: "nmea", label: "NMEA RMC+GGA, 1 device", path: layout.fixesNMEA, format: "nmea"),
            Load(key: "gpx", label: "GPX trkpt, 1 device", path: layout.fixesGPX, format: "gpx"),
            Load(
                key: "state", label: "NDJSON, 10k devices, --state (fresh)", path: layout.fixesNDJSON, format: "ndjson",
                stateful: true),
        ]
        let scaling = DataLayout.deviceScaling.map {
            Load(
                key: "devices-\(DataLayout.short($0))",
                label: "NDJSON, \(DataLayout.short($0)) devices" + ($0 == DataLayout.watchDevices ? " (= fixes.ndjson)" : ""),
                path: layout.devices($0), format: "ndjson")
        }
        // Issue 10: a stream where every fix is a new device, and every landmark a favourite
        // (`--favorites all`: all 144,563, against the catalog's 2 % of the `ndjson` load).
        let distinct = Load(
            key: "distinct", label: "NDJSON, 1M distinct devices (one fix each)", path: layout.distinctDevices,
            format: "ndjson", fixes: DataLayout.distinctDevices)
        let allFavorites = Load(
            key: "favorites-all", label: "NDJSON, 10k devices, --favorites all (100 %)", path: layout.fixesNDJSON,
            format: "ndjson", arguments: ["--favorites", "all"])
        // Issue 10 names the 144k tutorial-JSON catalog: the same fixes with that catalog
        // (made by `landmark-bench nearest` or here, from the cities CSV).
        let jsonCatalog = Load(
            key: "ndjson-json-catalog", label: "NDJSON, 10k devices, 144k tutorial-JSON catalog", path: layout.fixesNDJSON,
            format: "ndjson", catalog: layout.directory + "/landmarks-144k.json")
        // The motion rules on the same replay: passes between fixes up to 5 minutes apart and
        // 2-minute dwells (their target: at least 2 M fixes/s, the cheap bounds still skipping
        // the trigonometry for most fixes).
        let motion = Load(
            key: "motion", label: "NDJSON, 10k devices, --crossing 5m --dwell 2m", path: layout.fixesNDJSON,
            format: "ndjson", arguments: ["--crossing", "5m", "--dwell", "2m"])
        if load == "escaping" { return [try EscapingBenchmark.measure(binary: binary, scratch: scratch, reps: reps)] }
        let loads: [Load]
        switch load {
        case "all": loads = single + [motion, jsonCatalog] + scaling + [distinct, allFavorites]
        case "motion": loads = [motion]
        case "json-catalog": loads = [jsonCatalog]
        case "devices": loads = scaling
        case "distinct": loads = [distinct]
        case "favorites": loads = single.filter { $0.key == "ndjson" } + [allFavorites]
        case "ndjson", "csv", "nmea", "gpx", "state": loads = single.filter { $0.key == load }
        default:
            throw BenchError(
                "--load takes ndjson, csv, nmea, gpx, state, motion, json-catalog, devices, distinct, favorites, escaping or all, not '\(load)'"
            )
        }
        if loads.contains(where: { $0.key == distinct.key }), !FileManager.default.fileExists(atPath: distinct.path) {
            Stderr.line("watch: making \(distinct.path) (once)")
            try GenerateCommand.writeDistinctDevices(
                layout: layout, places: try GenerateCommand.places(), seed: UInt64(manifestSeed(layout: layout)))
        }
        if let json = jsonCatalog.catalog, loads.contains(where: { $0.key == jsonCatalog.key }),
            !FileManager.default.fileExists(atPath: json)
        {
            try NearestStreamBenchmark.writeJSONShapes(
                of: layout.citiesCatalog, json: json, geojson: layout.directory + "/landmarks-144k.geojson")
        }
        for item in loads where !FileManager.default.fileExists(atPath: item.path) {
            throw BenchError("\(item.path) is missing: run `landmark-bench generate` first")
        }
        let catalog = layout.citiesCatalog
        let fixes = manifestFixCount(layout: layout)
        var results: [Measurement] = []

        // Start-up: catalog load + index build of the 144,563 places, on an empty stream.
        let empty = scratch + "/empty.ndjson"
        _ = FileManager.default.createFile(atPath: empty, contents: Data())
        var startupTimes: [Double] = []
        for _ in 0..<reps {
            let outcome = try ChildProcess.run(
                binary, ["watch", "--format", "ndjson", "--landmarks", catalog],
                stdin: empty, stderrPath: scratch + "/startup.err")
            startupTimes.append(outcome.seconds)
        }
        let startup = Statistics.median(startupTimes)
        results.append(
            Measurement(
                key: "watch.startup", what: "watch start-up (load + index 144,563, no fixes)",
                dataset: "GeoNames catalog", value: startup * 1000, unit: "ms",
                note: "median of \(reps)"))

        var peakByKey: [String: Int] = [:]
        var upperByKey: [String: Int] = [:]
        var timesByKey: [String: [Double]] = [:]
        for item in loads {
            var times: [Double] = []
            var cpuTimes: [Double] = []
            var peak = 0
            var upperBound = 0
            var summary = ""
            // devices-10k is the very file fixes.ndjson (a hard link): reuse its runs.
            let reused = item.path == layout.devices(DataLayout.watchDevices) ? timesByKey["ndjson"] : nil
            if let reused {
                times = reused
                peak = peakByKey["ndjson"] ?? 0
                upperBound = upperByKey["ndjson"] ?? 0
                summary = "(same file as fixes.ndjson)"
            }
            for rep in 0..<(reused == nil ? reps : 0) {
                Stderr.write("\rwatch \(item.label): run \(rep + 1)/\(reps)…\u{1B}[K")
                var arguments = ["watch", "--format", item.format, "--landmarks", item.catalog ?? catalog] + item.arguments
                if item.stateful {
                    let state = scratch + "/state.db"
                    for suffix in ["", "-wal", "-shm", "-lock"] { try? FileManager.default.removeItem(atPath: state + suffix) }
                    arguments += ["--state", state]
                }
                let outcome = try ChildProcess.run(binary, arguments, stdin: item.path, stderrPath: scratch + "/\(item.key).err")
                guard outcome.status == 0 || outcome.status == 65 else {
                    Stderr.line("")
                    throw BenchError("landmark-near watch exited \(outcome.status) on \(item.path): \(outcome.stderr.suffix(400))")
                }
                times.append(outcome.seconds)
                cpuTimes.append(outcome.cpuSeconds)
                peak = max(peak, outcome.peakRSSBytes)
                upperBound = max(upperBound, outcome.maxRSSBytes)
                summary = outcome.stderr.split(separator: "\n").last.map(String.init) ?? ""
            }
            let seconds = Statistics.median(times)
            let fixes = item.fixes ?? fixes
            Stderr.line(
                String(
                    format: "\rwatch %@: %.2f s, %.0f fixes/s, peak RSS %.1f MiB\u{1B}[K",
                    item.label, seconds, Double(fixes) / seconds, Double(peak) / 1_048_576))
            print("watch \(item.label): summary: \(summary)")
            peakByKey[item.key] = peak
            upperByKey[item.key] = upperBound
            timesByKey[item.key] = times
            let excluding = seconds > startup ? Double(fixes) / (seconds - startup) : .nan
            let notified = notificationCount(summary).map { "; \($0.grouped) notifications" } ?? ""
            let cpu =
                cpuTimes.isEmpty
                ? "" : String(format: "; %.0f fixes per CPU second (user + sys, median)", Double(fixes) / Statistics.median(cpuTimes))
            results.append(
                Measurement(
                    key: "watch.\(item.key)", what: "watch end to end", dataset: item.label,
                    value: Double(fixes) / seconds, unit: "fixes/s",
                    note:
                        "\(fixes.grouped) fixes, median of \(reps); \(String(format: "%.0f", excluding)) fixes/s without start-up\(notified)\(cpu)"
                ))
            results.append(
                Measurement(
                    key: "watch.rss.\(item.key)", what: "watch peak RSS", dataset: item.label,
                    value: Double(peak) / 1_048_576, unit: "MiB",
                    note:
                        "VmHWM polled each ms, max of \(reps); wait4 ru_maxrss \(String(format: "%.1f", Double(upperBound) / 1_048_576)) MiB"
                ))
        }
        if let some = timesByKey["ndjson"], let all = timesByKey[allFavorites.key] {
            results.append(
                Measurement(
                    key: "watch.favorites.ratio", what: "watch time, 100 % / 2 % favourites", dataset: "NDJSON, 10k devices",
                    value: Statistics.median(all) / Statistics.median(some), unit: "×",
                    note: "`--favorites all` (144,563) against the catalog's every 50th (2,892); target <= 2"))
        }
        let counts = DataLayout.deviceScaling
        if let low = peakByKey["devices-\(DataLayout.short(counts.first!))"],
            let high = peakByKey["devices-\(DataLayout.short(counts.last!))"]
        {
            let devices = counts.last! - counts.first!
            results.append(
                Measurement(
                    key: "watch.perdevice", what: "memory per device", dataset: "NDJSON, 1k → 100k devices",
                    value: Double(high - low) / Double(devices), unit: "B",
                    note: "(peak RSS 100k − peak RSS 1k) / 99,000"))
        }
        if load == "all" { results.append(try EscapingBenchmark.measure(binary: binary, scratch: scratch, reps: reps)) }
        if load == "all" || load == "state" {
            results += DeviceBenchmark.measure(catalogPath: catalog)
            if let latency = LiveLatency.measure(binary: binary, scratch: scratch) { results.append(latency) }
        }
        return results
    }

    /// The `N notifications` of watch's stderr summary, when it has one.
    static func notificationCount(_ summary: String) -> Int? {
        let words = summary.split(whereSeparator: { $0 == " " || $0 == ";" || $0 == "," })
        guard let at = words.firstIndex(where: { $0.hasPrefix("notification") }), at > words.startIndex else { return nil }
        return Int(words[words.index(before: at)])
    }

    static func manifestSeed(layout: DataLayout) -> Int {
        guard let data = FileManager.default.contents(atPath: layout.manifest),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let seed = object["seed"] as? Int
        else { return 42 }
        return seed
    }

    static func manifestFixCount(layout: DataLayout) -> Int {
        guard let data = FileManager.default.contents(atPath: layout.manifest),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let fixes = object["fixes"] as? Int
        else { return DataLayout.fixCount }
        return fixes
    }
}
