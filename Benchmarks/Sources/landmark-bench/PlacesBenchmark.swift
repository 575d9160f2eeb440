import Foundation
import LandmarkNear

/// `landmark-bench places`: landmarks that are places (docs/reference/catalogs.md, "Places").
/// `watch` end to end with 10,000 polygon favourites of 64–512 vertices, on the standard replay
/// (`fixes.ndjson`: devices around all GeoNames places) and on a dense one (devices around the
/// polygons themselves, so that most fixes are near or inside one); the start-up of each; and
/// the load of a 100,000-polygon catalog of up to 10,000 vertices a polygon, with its memory per
/// vertex. The peers (`Benchmarks/peers/places_peers.py`: shapely STRtree + geographiclib, PostGIS
/// geography `ST_DWithin`) read the same files and write `peers.json` entries beside ours.
enum PlacesBenchmark {
    static let usage = "landmark-bench places [--reps 3] [--binary PATH] [--out Benchmarks/out]"

    static func run(_ arguments: [String]) throws(BenchError) {
        let options = try Options(arguments, allowed: ["reps", "binary", "out"])
        let layout = DataLayout(directory: options.string("out", default: "Benchmarks/out"))
        let measurements = try measure(
            layout: layout, reps: try options.int("reps", default: 3), binary: options.string("binary", default: ""))
        guard let measurements else { return }
        let peers = PeerResults.load(path: layout.peersResults)
        print(ReportTable.matrix(ours: measurements, peers: peers, prefixes: ["places."]))
        print("\nDetails:\n")
        print(ReportTable.markdown(ours: measurements, peers: peers, prefixes: ["places."]))
        BenchResults.merge(measurements, prefix: "places.", path: layout.benchResults)
    }

    /// Makes the places' files that are missing (deterministically from the manifest's seed).
    static func generate(layout: DataLayout) throws(BenchError) {
        let fm = FileManager.default
        let seed = UInt64(WatchBenchmark.manifestSeed(layout: layout))
        guard
            !fm.fileExists(atPath: layout.places10k) || !fm.fileExists(atPath: layout.placesFixes)
                || !fm.fileExists(atPath: layout.places100k)
        else { return }
        let places = try GenerateCommand.places()
        let (centers, _) = try PlaceSetGenerator.write(
            to: layout.places10k, places: places, count: DataLayout.placeFavorites, seed: seed, stream: "places-10k",
            favoriteEvery: 1, vertexCount: { 64 + $0.below(449) })
        try GenerateCommand.writeMultiDevice(
            layout: layout, devices: DataLayout.watchDevices, fixes: DataLayout.fixCount, places: centers, seed: seed,
            ndjson: layout.placesFixes, csv: nil)
        // A hundredth of the polygons have 1,000–10,000 vertices (a coastline, a national
        // park), the rest 16–512, both log-uniform.
        try PlaceSetGenerator.write(
            to: layout.places100k, places: places, count: DataLayout.placeCatalog, seed: seed, stream: "places-100k",
            favoriteEvery: 10,
            vertexCount: { random in
                let large = random.below(100) == 0
                let (low, high) = large ? (1_000.0, 10_000.0) : (16.0, 512.0)
                return Int(_exp(random.uniform(_log(low), _log(high + 1))))
            })
    }

    static func measure(layout: DataLayout, reps: Int, binary: String) throws(BenchError) -> [Measurement]? {
        let binary = binary.isEmpty ? WatchBenchmark.defaultBinary() : binary
        let scratch = layout.directory + "/places-run"
        try? FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        if let reason = WatchBenchmark.unavailableReason(binary: binary, scratch: scratch) {
            print("places not available: \(reason)")
            return nil
        }
        guard FileManager.default.fileExists(atPath: layout.fixesNDJSON) else {
            throw BenchError("\(layout.fixesNDJSON) is missing: run `landmark-bench generate` first")
        }
        try generate(layout: layout)
        let empty = scratch + "/empty.ndjson"
        _ = FileManager.default.createFile(atPath: empty, contents: Data())
        var results: [Measurement] = []

        func runs(_ label: String, _ arguments: [String], stdin: String) throws(BenchError) -> (seconds: Double, peak: Int, summary: String)
        {
            var times: [Double] = []
            var peak = 0
            var summary = ""
            for rep in 0..<reps {
                Stderr.write("\rplaces \(label): run \(rep + 1)/\(reps)…\u{1B}[K")
                let outcome = try ChildProcess.run(binary, arguments, stdin: stdin, stderrPath: scratch + "/run.err")
                guard outcome.status == 0 || outcome.status == 65 else {
                    Stderr.line("")
                    throw BenchError(
                        "landmark-near \(arguments.joined(separator: " ")) exited \(outcome.status): \(outcome.stderr.suffix(400))")
                }
                times.append(outcome.seconds)
                peak = max(peak, outcome.peakRSSBytes)
                summary = outcome.stderr.split(separator: "\n").last.map(String.init) ?? ""
            }
            let seconds = Statistics.median(times)
            Stderr.line(String(format: "\rplaces %@: %.3f s, peak RSS %.1f MiB\u{1B}[K", label, seconds, Double(peak) / 1_048_576))
            return (seconds, peak, summary)
        }

        let watch = ["watch", "--format", "ndjson", "--landmarks", layout.places10k]
        // One run first, not counted: the first read of the catalog after `landmark-bench
        // places` wrote it may still go to the disk (with --reps 1 a cold start-up measured
        // longer than a whole replay).
        _ = try ChildProcess.run(binary, watch, stdin: empty, stderrPath: scratch + "/run.err")
        let startup = try runs("start-up, 10k polygons", watch, stdin: empty)
        results.append(
            Measurement(
                key: "places.startup", what: "watch start-up (load, check and measure 10k polygons, no fixes)",
                dataset: "10k polygons, 64–512 vertices", value: startup.seconds * 1000, unit: "ms", note: "median of \(reps)"))
        for (key, label, path) in [
            ("standard", "NDJSON, 10k devices around GeoNames places", layout.fixesNDJSON),
            ("dense", "NDJSON, 10k devices around the polygons", layout.placesFixes),
        ] {
            let run = try runs(label, watch, stdin: path)
            print("places \(label): summary: \(run.summary)")
            let fixes = DataLayout.fixCount
            let notified = WatchBenchmark.notificationCount(run.summary).map { "; \($0.grouped) notifications" } ?? ""
            let excluding =
                run.seconds > startup.seconds
                ? String(format: "%.0f fixes/s without start-up", Double(fixes) / (run.seconds - startup.seconds))
                : "no figure without start-up (the start-up's median is longer than this run's)"
            results.append(
                Measurement(
                    key: "places.watch.\(key)", what: "watch end to end, 10k polygon favourites", dataset: label,
                    value: Double(fixes) / run.seconds, unit: "fixes/s",
                    note:
                        "\(fixes.grouped) fixes, median of \(reps); \(excluding)\(notified)"
                ))
            results.append(
                Measurement(
                    key: "places.rss.\(key)", what: "watch peak RSS, 10k polygon favourites", dataset: label,
                    value: Double(run.peak) / 1_048_576, unit: "MiB", note: "VmHWM polled each ms, max of \(reps)"))
        }

        // The 100k catalog: `landmarks` reads and checks every polygon; `watch` also measures
        // its 10,000 favourites.
        let vertices = try vertexCount(of: layout.places100k)
        let listing = try runs("landmarks, 100k polygons", ["landmarks", "--landmarks", layout.places100k, "--json"], stdin: empty)
        let baseline = try runs("landmarks, embedded", ["landmarks", "--json"], stdin: empty)
        results.append(
            Measurement(
                key: "places.load.100k", what: "load and check a catalog of 100k polygons (`landmarks --json`)",
                dataset: "100k polygons, 16–10,000 vertices (\(vertices.grouped) in all)", value: listing.seconds, unit: "s",
                note: "median of \(reps)"))
        results.append(
            Measurement(
                key: "places.memory.vertex", what: "memory per vertex, catalog loaded", dataset: "100k polygons",
                value: Double(listing.peak - baseline.peak) / Double(vertices), unit: "B",
                note: "(peak RSS of `landmarks` on it − on the embedded twelve) / vertices"))
        let started = try runs(
            "watch start-up, 100k polygons", ["watch", "--format", "ndjson", "--landmarks", layout.places100k], stdin: empty)
        results.append(
            Measurement(
                key: "places.startup.100k", what: "watch start-up (100k polygons, 10k favourites measured)",
                dataset: "100k polygons", value: started.seconds, unit: "s",
                note: String(format: "median of %d; peak RSS %.0f MiB", reps, Double(started.peak) / 1_048_576)))
        return results
    }

    /// The vertices of a generated catalog's rings, closing positions not counted: each position
    /// is `[lon,lat]` (a "[" before a number), each ring opens with "[[" before its first.
    static func vertexCount(of path: String) throws(BenchError) -> Int {
        guard let data = FileManager.default.contents(atPath: path) else { throw BenchError("cannot read \(path)") }
        var positions = 0
        var rings = 0
        data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
            var before: UInt8 = 0
            var previous: UInt8 = 0
            for byte in raw {
                if previous == UInt8(ascii: "["), byte == UInt8(ascii: "-") || (byte >= 48 && byte <= 57) {
                    positions += 1
                    if before == UInt8(ascii: "[") { rings += 1 }
                }
                before = previous
                previous = byte
            }
        }
        return positions - rings
    }
}
