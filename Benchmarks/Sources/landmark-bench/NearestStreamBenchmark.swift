import Foundation
import LandmarkNear

/// `landmark-bench nearest`: `landmark-near nearest` as a stream, end to end as a process
/// (start, catalog load and index build of the 144,563 places, 1M `lat,lon` lines, answers to
/// /dev/null), text and `--json`, interleaved with the peer pipeline (pykdtree from Python,
/// `Benchmarks/peers/nearest_stream.py`) run the same way: ours, peer, ours, peer, …, medians,
/// so each ratio comes from one run. Also catalog loading per format and size: the same
/// command on an empty stdin, for the tutorial JSON, GeoJSON and CSV shapes of the 144k
/// places and of the synthetic 1M (files made here from the generated CSVs when missing).
enum NearestStreamBenchmark {
    static let usage = "landmark-bench nearest [--queries 1000000] [--reps 3] [--binary PATH] [--python PATH] [--out Benchmarks/out]"

    static func run(_ arguments: [String]) throws(BenchError) {
        let options = try Options(arguments, allowed: ["queries", "reps", "binary", "python", "out"])
        let layout = DataLayout(directory: options.string("out", default: "Benchmarks/out"))
        let (ours, peers) = try measure(
            layout: layout, queries: try options.int("queries", default: DataLayout.queryCount),
            reps: try options.int("reps", default: 3), binary: options.string("binary", default: ""),
            python: options.string("python", default: ""))
        print(ReportTable.markdown(ours: ours, peers: PeerResults(results: peers, python: nil), prefixes: ["nearest.", "catalog."]))
        BenchResults.merge(ours, prefix: "nearest.", path: layout.benchResults)
    }

    static func measure(layout: DataLayout, queries: Int, reps: Int, binary: String, python: String) throws(BenchError)
        -> (ours: [Measurement], peers: [PeerResults.Entry])
    {
        let binary = binary.isEmpty ? WatchBenchmark.defaultBinary() : binary
        let python = python.isEmpty ? "Benchmarks/peers/.venv/bin/python" : python
        guard FileManager.default.isExecutableFile(atPath: binary) else {
            throw BenchError("no landmark-near binary at \(binary) (build it: swift build -c release --product landmark-near)")
        }
        guard FileManager.default.fileExists(atPath: layout.queries) else {
            throw BenchError("\(layout.queries) is missing: run `landmark-bench generate` first")
        }
        let scratch = layout.directory + "/nearest-run"
        try? FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        // The query lines without the CSV header (a header is not a position).
        let lines = scratch + "/queries-\(DataLayout.short(queries)).txt"
        if !FileManager.default.fileExists(atPath: lines) {
            guard let text = try? String(contentsOfFile: layout.queries, encoding: .utf8) else {
                throw BenchError("cannot read \(layout.queries)")
            }
            let body = text.split(separator: "\n").dropFirst().prefix(queries).joined(separator: "\n") + "\n"
            _ = FileManager.default.createFile(atPath: lines, contents: Data(body.utf8))
        }
        let catalog = layout.citiesCatalog
        let peerAvailable = FileManager.default.isExecutableFile(atPath: python)
        if !peerAvailable { Stderr.line("nearest: no \(python) (run bash Benchmarks/peers/run.sh once): peer left out") }
        let peerScript = "Benchmarks/peers/nearest_stream.py"
        var ours: [Measurement] = []
        var peers: [PeerResults.Entry] = []
        for json in [false, true] {
            let mode = json ? "json" : "text"
            var mine: [Double] = []
            var theirs: [Double] = []
            for rep in 0..<reps {
                Stderr.write("\rnearest \(mode): run \(rep + 1)/\(reps)…\u{1B}[K")
                let outcome = try ChildProcess.run(
                    binary, ["nearest", "--landmarks", catalog] + (json ? ["--json"] : []),
                    stdin: lines, stderrPath: scratch + "/ours.err")
                guard outcome.status == 0 else {
                    throw BenchError("landmark-near nearest exited \(outcome.status): \(outcome.stderr.suffix(300))")
                }
                mine.append(outcome.seconds)
                if peerAvailable {
                    let peer = try ChildProcess.run(
                        python, [peerScript, catalog] + (json ? ["--json"] : []),
                        stdin: lines, stderrPath: scratch + "/peer.err")
                    guard peer.status == 0 else { throw BenchError("\(peerScript) exited \(peer.status): \(peer.stderr.suffix(300))") }
                    theirs.append(peer.seconds)
                }
            }
            Stderr.line("")
            let key = "nearest.stream.\(mode)"
            ours.append(
                Measurement(
                    key: key, what: "nearest stream end to end" + (json ? ", --json" : ", text"),
                    dataset: "GeoNames 144,563, \(queries.grouped) queries",
                    value: Statistics.median(mine) / Double(queries) * 1e6, unit: "µs/query",
                    note: "process start to exit, catalog CSV load and index included; median of \(reps), interleaved with the peer"))
            if !theirs.isEmpty {
                peers.append(
                    PeerResults.Entry(
                        key: key, peer: "pykdtree from Python (spherical)",
                        value: Statistics.median(theirs) / Double(queries) * 1e6, unit: "µs/query",
                        note: "process: CSV catalog, KDTree on unit vectors, one batched query, lines written; same run, interleaved"))
            }
        }
        ours += try catalogLoads(layout: layout, binary: binary, reps: reps, scratch: scratch)
        return (ours, peers)
    }

    /// Catalog load + index build as a process (`nearest` on an empty stdin), per format and
    /// size, with peak RSS.
    static func catalogLoads(layout: DataLayout, binary: String, reps: Int, scratch: String) throws(BenchError) -> [Measurement] {
        let empty = scratch + "/empty.txt"
        _ = FileManager.default.createFile(atPath: empty, contents: Data())
        var results: [Measurement] = []
        for (name, csv) in [("144k", layout.citiesCatalog), ("1m", layout.syntheticCatalog)] {
            guard FileManager.default.fileExists(atPath: csv) else { continue }
            let json = layout.directory + "/landmarks-\(name).json"
            let geojson = layout.directory + "/landmarks-\(name).geojson"
            if !FileManager.default.fileExists(atPath: json) || !FileManager.default.fileExists(atPath: geojson) {
                try writeJSONShapes(of: csv, json: json, geojson: geojson)
            }
            for (format, path) in [("tutorial JSON", json), ("GeoJSON", geojson), ("CSV", csv)] {
                var times: [Double] = []
                var peak = 0
                // One untimed run first: the row is the load itself, not this shared machine's
                // first run after other work, which finds part of the file and of the binary out
                // of the page cache (measured; see Benchmarks/LOG.md). Its time is in the note.
                var first = 0.0
                for rep in 0...reps {
                    let outcome = try ChildProcess.run(
                        binary, ["nearest", "--landmarks", path], stdin: empty, stderrPath: scratch + "/load.err")
                    guard outcome.status == 0 else {
                        throw BenchError("loading \(path) exited \(outcome.status): \(outcome.stderr.suffix(300))")
                    }
                    peak = max(peak, outcome.peakRSSBytes)
                    if rep == 0 { first = outcome.seconds } else { times.append(outcome.seconds) }
                }
                let key = "catalog.load.\(name).\(format.lowercased().replacingOccurrences(of: " ", with: "-"))"
                results.append(
                    Measurement(
                        key: key, what: "catalog load + index, as a process", dataset: "\(format), \(name) places",
                        value: Statistics.median(times) * 1000, unit: "ms",
                        note:
                            "`nearest --landmarks FILE` on an empty stdin, median of \(reps) after an untimed first run (\(String(format: "%.0f", first * 1000)) ms); peak RSS \(String(format: "%.1f", Double(peak) / 1_048_576)) MiB"
                    ))
                results.append(
                    Measurement(
                        key: key + ".rss", what: "catalog load peak RSS", dataset: "\(format), \(name) places",
                        value: Double(peak) / 1_048_576, unit: "MiB", note: "VmHWM polled each ms, max of \(reps + 1) runs"))
                Stderr.line(
                    String(
                        format: "catalog %@ %@: %.1f ms (first run %.1f), %.1f MiB", format, name,
                        Statistics.median(times) * 1000, first * 1000, Double(peak) / 1_048_576)
                )
            }
        }
        return results
    }

    /// The tutorial JSON array and the GeoJSON FeatureCollection of a generated CSV catalog.
    static func writeJSONShapes(of csv: String, json: String, geojson: String) throws(BenchError) {
        let catalog: LandmarkCatalog
        do { catalog = try CatalogLoader.load(path: csv) } catch { throw BenchError("\(error)") }
        var tutorial = "[\n"
        var features = "{\"type\":\"FeatureCollection\",\"features\":[\n"
        for (i, landmark) in catalog.landmarks.enumerated() {
            let name = quoted(landmark.name)
            let lat = "\(landmark.coordinate.latitude)"
            let lon = "\(landmark.coordinate.longitude)"
            let separator = i + 1 < catalog.count ? ",\n" : "\n"
            tutorial +=
                "  {\"id\": \(landmark.id), \"name\": \(name), \"category\": \"Places\", \"coordinates\": {\"latitude\": \(lat), \"longitude\": \(lon)}, \"isFavorite\": \(landmark.isFavorite), \"isFeatured\": false, \"imageName\": \"place\(landmark.id)\"}"
                + separator
            features +=
                "{\"type\":\"Feature\",\"geometry\":{\"type\":\"Point\",\"coordinates\":[\(lon),\(lat)]},\"properties\":{\"id\":\(landmark.id),\"name\":\(name),\"isFavorite\":\(landmark.isFavorite)}}"
                + separator
        }
        _ = FileManager.default.createFile(atPath: json, contents: Data((tutorial + "]\n").utf8))
        _ = FileManager.default.createFile(atPath: geojson, contents: Data((features + "]}\n").utf8))
    }

    /// A JSON string literal (quotes, backslashes and control characters escaped).
    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
