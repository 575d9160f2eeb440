import Foundation

/// `landmark-bench all`: the index and watch benchmarks, then one Markdown table of every
/// figure (with the peers' when `Benchmarks/out/peers.json` exists).
enum AllCommand {
    static let usage = "landmark-bench all [--queries 1000000] [--reps 5] [--watch-reps 3] [--binary PATH] [--out Benchmarks/out]"

    static func run(_ arguments: [String]) throws(BenchError) {
        let options = try Options(arguments, allowed: ["queries", "reps", "watch-reps", "budget", "binary", "out"])
        let layout = DataLayout(directory: options.string("out", default: "Benchmarks/out"))
        if !FileManager.default.fileExists(atPath: layout.manifest) {
            Stderr.line("landmark-bench all: no generated data yet, generating it first")
            try GenerateCommand.run(["--out", layout.directory])
        }
        var measurements = try IndexBenchmark.measure(
            layout: layout, which: "all", queryLimit: try options.int("queries", default: DataLayout.queryCount),
            reps: try options.int("reps", default: 5), budget: Double(try options.int("budget", default: 2)))
        BenchResults.merge(measurements, prefix: "index.", path: layout.benchResults)
        var notes: [String] = []
        if let watch = try WatchBenchmark.measure(
            layout: layout, load: "all", reps: try options.int("watch-reps", default: 3),
            binary: options.string("binary", default: ""))
        {
            BenchResults.merge(watch, prefix: "watch.", path: layout.benchResults)
            measurements += watch
        } else {
            notes.append("\n`watch`: not available in this build (see above).")
        }
        // nearest as a stream and catalog loading, with the pykdtree pipeline interleaved.
        let stream = try NearestStreamBenchmark.measure(
            layout: layout, queries: try options.int("queries", default: DataLayout.queryCount),
            reps: try options.int("watch-reps", default: 3), binary: options.string("binary", default: ""), python: "")
        BenchResults.merge(stream.ours, prefix: "nearest.", path: layout.benchResults)
        measurements += stream.ours
        let machine = MachineInfo.current
        print("\nMachine: \(machine.cores) cores (nproc), \(machine.cpu)\n")
        var peers = PeerResults.load(path: layout.peersResults) ?? PeerResults(results: [], python: nil)
        let fresh = Set(stream.peers.map(\.key))
        peers.results = peers.results.filter { !fresh.contains($0.key) } + stream.peers
        let prefixes = ["index.", "watch.", "nearest.", "catalog."]
        print(ReportTable.matrix(ours: measurements, peers: peers, prefixes: prefixes))
        print(
            (notes + [
                "", "×N: LandmarkNear is N times faster (time, rate) or smaller (bytes) than that peer; below ×1 the peer wins.",
                "Peers are spherical, LandmarkNear WGS84 ellipsoidal. Peers' queries are batched (one call for all points) unless",
                "marked per call; LandmarkNear's are one call per point. shapely STRtree's nearest is planar in degrees.",
                "", "<details><summary>Details: every figure with its notes</summary>", "",
            ]).joined(separator: "\n"))
        print(ReportTable.markdown(ours: measurements, peers: peers, prefixes: prefixes))
        print("\n</details>")
    }
}
