import Foundation

/// `landmark-bench all`: the index benchmark interleaved with the peers' (ours, peers, ours,
/// peers, … one pass each, medians per figure, so each ratio comes from one run), the watch
/// benchmark, the nearest stream and catalog loads (interleaved with the pykdtree pipeline),
/// then one Markdown table of every figure. The peers run through `Benchmarks/peers/run.sh`
/// (which makes their venv the first time); `--no-peers` leaves them out.
enum AllCommand {
    static let usage =
        "landmark-bench all [--queries 1000000] [--reps 5] [--watch-reps 3] [--binary PATH] [--out Benchmarks/out] [--no-peers]"

    static func run(_ arguments: [String]) throws(BenchError) {
        var arguments = arguments
        let withPeers = !arguments.contains("--no-peers")
        arguments.removeAll { $0 == "--no-peers" }
        let options = try Options(arguments, allowed: ["queries", "reps", "watch-reps", "budget", "binary", "out"])
        let layout = DataLayout(directory: options.string("out", default: "Benchmarks/out"))
        if !FileManager.default.fileExists(atPath: layout.manifest) {
            Stderr.line("landmark-bench all: no generated data yet, generating it first")
            try GenerateCommand.run(["--out", layout.directory])
        }
        // The index and the peers, one pass each in turn.
        var ours: [[Measurement]] = []
        var theirs: [PeerResults] = []
        for pass in 0..<(try options.int("reps", default: 5)) {
            Stderr.line("landmark-bench all: index, pass \(pass + 1)")
            ours.append(
                try IndexBenchmark.measure(
                    layout: layout, which: "all", queryLimit: try options.int("queries", default: DataLayout.queryCount),
                    reps: 1, budget: Double(try options.int("budget", default: 2))))
            if withPeers {
                Stderr.line("landmark-bench all: peers, pass \(pass + 1)")
                if let peers = try runPeers(layout: layout) { theirs.append(peers) }
            }
        }
        var measurements = Statistics.medianByKey(ours)
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
        var peers =
            theirs.isEmpty
            ? (PeerResults.load(path: layout.peersResults) ?? PeerResults(results: [], python: nil))
            : PeerResults.medianByKey(theirs)
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

    /// One pass of the peers (`Benchmarks/peers/run.sh --reps 1`), its `peers.json` read back;
    /// nil (with a note) where they cannot run here.
    static func runPeers(layout: DataLayout) throws(BenchError) -> PeerResults? {
        let script = "Benchmarks/peers/run.sh"
        guard FileManager.default.fileExists(atPath: script) else {
            Stderr.line("landmark-bench all: no \(script) (run from the repository root): peers left out")
            return nil
        }
        let log = layout.directory + "/peers-run.log"
        let outcome = try ChildProcess.run(
            "/bin/bash", [script, "--reps", "1", "--out", layout.directory], stdin: "/dev/null", stderrPath: log)
        guard outcome.status == 0 else {
            Stderr.line("landmark-bench all: \(script) exited \(outcome.status) (see \(log)): peers left out of this pass")
            return nil
        }
        return PeerResults.load(path: layout.peersResults)
    }
}
