import Foundation
import LandmarkNear

/// `landmark-bench index`: `LandmarkIndex.nearest(limit: 1)` and `within(5 mi)` per query,
/// build time and bytes per landmark, over the embedded 12, the 144,563 GeoNames places and
/// the synthetic 10k / 100k / 1M sets.
enum IndexBenchmark {
    static let usage =
        "landmark-bench index [--landmarks embedded|cities|synthetic|all] [--queries 1000000] [--reps 5] [--budget 2] [--out Benchmarks/out]"
    static let fiveMiles = 8046.72

    struct DataSet {
        var key: String
        var label: String
        var coordinates: [Coordinate]
    }

    static func run(_ arguments: [String]) throws(BenchError) {
        let options = try Options(arguments, allowed: ["landmarks", "queries", "reps", "budget", "out"])
        let layout = DataLayout(directory: options.string("out", default: "Benchmarks/out"))
        let measurements = try measure(
            layout: layout, which: options.string("landmarks", default: "all"),
            queryLimit: try options.int("queries", default: DataLayout.queryCount),
            reps: try options.int("reps", default: 5), budget: Double(try options.int("budget", default: 2)))
        let peers = PeerResults.load(path: layout.peersResults)
        print(ReportTable.matrix(ours: measurements, peers: peers, prefixes: ["index."]))
        print("\nDetails:\n")
        print(ReportTable.markdown(ours: measurements, peers: peers, prefixes: ["index."]))
        BenchResults.merge(measurements, prefix: "index.", path: layout.benchResults)
    }

    static func dataSets(layout: DataLayout, which: String) throws(BenchError) -> [DataSet] {
        guard ["embedded", "cities", "synthetic", "all"].contains(which) else {
            throw BenchError("--landmarks takes embedded, cities, synthetic or all, not '\(which)'")
        }
        var sets: [DataSet] = []
        if which == "embedded" || which == "all" {
            sets.append(
                DataSet(
                    key: "embedded", label: "embedded 12",
                    coordinates: LandmarkCatalog.embedded.landmarks.map(\.coordinate)))
        }
        if which == "cities" || which == "all" {
            let cities = try CoordinateFile.read(path: DataLayout.citiesSource, latColumn: 0)
            sets.append(DataSet(key: "cities", label: "GeoNames \(cities.coordinates.count.grouped)", coordinates: cities.coordinates))
        }
        if which == "synthetic" || which == "all" {
            for size in DataLayout.subsetSizes + [DataLayout.syntheticCount] {
                let path = size == DataLayout.syntheticCount ? layout.syntheticCatalog : layout.syntheticSubset(size)
                guard FileManager.default.fileExists(atPath: path) else {
                    throw BenchError("\(path) is missing: run `landmark-bench generate` first")
                }
                let file = try CoordinateFile.read(path: path, latColumn: 1)
                sets.append(
                    DataSet(
                        key: "synthetic-\(DataLayout.short(size))",
                        label: "synthetic \(file.coordinates.count.grouped)", coordinates: file.coordinates))
            }
        }
        return sets
    }

    static func measure(layout: DataLayout, which: String, queryLimit: Int, reps: Int, budget: Double) throws(BenchError) -> [Measurement] {
        guard FileManager.default.fileExists(atPath: layout.queries) else {
            throw BenchError("\(layout.queries) is missing: run `landmark-bench generate` first")
        }
        let queries = try CoordinateFile.read(path: layout.queries, latColumn: 0, limit: queryLimit).coordinates
        let sets = try dataSets(layout: layout, which: which)
        var checksum = 0.0
        var results: [Measurement] = []
        for set in sets {
            Stderr.line("index \(set.label): building…")
            // Build: memory on the first build, time as the median of up to 3 builds.
            let heapBefore = MemoryProbe.heapBytes()
            let rssBefore = MemoryProbe.residentBytes()
            let (index, firstBuild) = MonotonicClock.time { LandmarkIndex(coordinates: set.coordinates) }
            let heapAfter = MemoryProbe.heapBytes()
            let rssAfter = MemoryProbe.residentBytes()
            var buildTimes = [firstBuild]
            for _ in 1..<min(reps, 3) {
                let (other, seconds) = MonotonicClock.time { LandmarkIndex(coordinates: set.coordinates) }
                checksum += Double(other.count)
                buildTimes.append(seconds)
            }
            checksum += Double(index.count)
            let n = Double(set.coordinates.count)
            results.append(
                Measurement(
                    key: "index.build.\(set.key)", what: "build", dataset: set.label,
                    value: Statistics.median(buildTimes) * 1000, unit: "ms",
                    note: "median of \(buildTimes.count)"))
            let rssPerLandmark = Double(rssAfter - rssBefore) / n
            let heapPerLandmark = heapBefore.flatMap { before in heapAfter.map { Double($0 - before) / n } }
            results.append(
                Measurement(
                    key: "index.bytes.\(set.key)", what: "memory per landmark", dataset: set.label,
                    value: heapPerLandmark ?? rssPerLandmark, unit: "B",
                    note: heapPerLandmark != nil
                        ? "malloc'd bytes (mallinfo2); RSS delta \(String(format: "%.1f", rssPerLandmark)) B"
                        : "RSS delta (/proc/self/statm)"))

            if let only = ProcessInfo.processInfo.environment["BENCH_ONLY"] {
                if only == "batches" {
                    Stderr.line("only batches: \(timeBatches(queries, index: index, reps: reps, budget: budget).microseconds)")
                    continue
                }
                // near, far: the mix's halves; mix, within: all of it.
                let whole = only == "within" || only == "mix"
                let part = stride(from: only == "near" || whole ? 0 : 1, to: queries.count, by: whole ? 1 : 2).map { queries[$0] }
                let t = timeQueries(part, reps: reps, budget: budget) { point in
                    if only == "within" { return Double(index.within(fiveMiles, of: point).count) }
                    let found = index.nearest(to: point, limit: 1)
                    return found.isEmpty ? -1 : Double(found[0].index) + found[0].distance
                }
                Stderr.line("only \(only): \(t.microseconds)")
                continue
            }
            let nearest = timeQueries(queries, reps: reps, budget: budget) { point in
                let found = index.nearest(to: point, limit: 1)
                return found.isEmpty ? -1 : Double(found[0].index) + found[0].distance
            }
            checksum += nearest.checksum
            // The mix's halves apart: rows near a place, and area-uniform rows (mostly sea).
            for (half, name) in [(0, "near-places"), (1, "area-uniform")] {
                let part = stride(from: half, to: queries.count, by: 2).map { queries[$0] }
                let timing = timeQueries(part, reps: reps, budget: budget / 2) { point in
                    let found = index.nearest(to: point, limit: 1)
                    return found.isEmpty ? -1 : Double(found[0].index) + found[0].distance
                }
                checksum += timing.checksum
                results.append(
                    Measurement(
                        key: "index.nearest.\(set.key).\(name)",
                        what: "nearest k=1, \(name.replacingOccurrences(of: "-", with: " ")) rows",
                        dataset: set.label, value: timing.microseconds, unit: "µs/query",
                        note: "\(timing.queries.grouped) queries × \(reps), median of thread CPU time"))
                Stderr.line(String(format: "  nearest k=1, %@ rows: %.3f µs", name, timing.microseconds))
            }
            results.append(
                Measurement(
                    key: "index.nearest.\(set.key)", what: "nearest k=1", dataset: set.label,
                    value: nearest.microseconds, unit: "µs/query",
                    note: "\(nearest.queries.grouped) queries × \(reps), median of thread CPU time"))
            let batches = timeBatches(queries, index: index, reps: reps, budget: budget)
            checksum += batches.checksum
            results.append(
                Measurement(
                    key: "index.nearest-batches.\(set.key)", what: "nearest k=1, batches of 4,096", dataset: set.label,
                    value: batches.microseconds, unit: "µs/query",
                    note:
                        "`forEachNearest(of:limit: 1)` (locality order), \(batches.queries.grouped) queries × \(reps), median of thread CPU time"
                ))
            Stderr.line(String(format: "  nearest k=1, batches of 4,096: %.3f µs", batches.microseconds))
            var hits = 0
            var calls = 0
            let within = timeQueries(queries, reps: reps, budget: budget) { point in
                let found = index.within(fiveMiles, of: point)
                hits &+= found.count
                calls += 1
                return Double(found.count) + (found.first?.distance ?? 0)
            }
            checksum += within.checksum
            let perQuery = Double(hits) / Double(max(calls, 1))
            results.append(
                Measurement(
                    key: "index.within.\(set.key)", what: "within 5 mi", dataset: set.label,
                    value: within.microseconds, unit: "µs/query",
                    note:
                        "\(within.queries.grouped) queries × \(reps), median of thread CPU time; \(String(format: "%.2f", perQuery)) hits/query"
                ))
            Stderr.line(
                String(
                    format: "  build %.1f ms, %.1f B/landmark, nearest %.3f µs, within %.3f µs",
                    Statistics.median(buildTimes) * 1000, heapPerLandmark ?? rssPerLandmark,
                    nearest.microseconds, within.microseconds))
            withExtendedLifetime(index) {}
        }
        print("checksum: \(checksum)")
        return results
    }

    /// `timeQueries` for the index's batch search (`forEachNearest(of:limit:)`, which searches
    /// in `LocalityOrder`), over the queries in batches of 4,096 as a `nearest` stream
    /// asks them: µs a query.
    static func timeBatches(_ queries: [Coordinate], index: LandmarkIndex, reps: Int, budget: Double) -> Timing {
        let size = 4096
        let batches = stride(from: 0, to: queries.count, by: size).map { Array(queries[$0..<min(queries.count, $0 + size)]) }
        var checksum = 0.0
        func pass(_ count: Int) {
            for batch in batches.prefix(count) {
                index.forEachNearest(of: batch, limit: 1) { _, found in
                    checksum += found.isEmpty ? -1 : Double(found[0].index) + found[0].distance
                }
            }
        }
        let warmStart = MonotonicClock.now()
        pass(1)
        let perBatch = max(MonotonicClock.now() - warmStart, 1e-9)
        let count = max(1, min(batches.count, Int(budget / perBatch)))
        let n = batches.prefix(count).reduce(0) { $0 + $1.count }
        var samples: [Double] = []
        for _ in 0..<reps {
            let start = ThreadCPUClock.now()
            pass(count)
            samples.append((ThreadCPUClock.now() - start) / Double(n) * 1e6)
        }
        return Timing(microseconds: Statistics.median(samples), queries: n, checksum: checksum)
    }

    struct Timing {
        var microseconds: Double
        var queries: Int
        var checksum: Double
    }

    /// Warm-up (up to 1,000 queries or 0.2 s), then `reps` timed passes over the first n
    /// queries, n chosen so that one pass takes about `budget` seconds (at most all of them,
    /// at least 3). Returns the median µs per query of the thread's CPU time (wall time on this
    /// shared machine also counts other processes' turns). The closure's results are summed into
    /// a checksum so the optimizer cannot drop the calls.
    static func timeQueries(_ queries: [Coordinate], reps: Int, budget: Double, _ body: (Coordinate) -> Double) -> Timing {
        var checksum = 0.0
        let warmStart = MonotonicClock.now()
        var warmed = 0
        while warmed < min(1_000, queries.count) {
            checksum += body(queries[warmed])
            warmed += 1
            if MonotonicClock.now() - warmStart > 0.2 { break }
        }
        let perQuery = (MonotonicClock.now() - warmStart) / Double(warmed)
        let n = max(min(3, queries.count), min(queries.count, Int(budget / max(perQuery, 1e-9))))
        var samples: [Double] = []
        for _ in 0..<reps {
            let start = ThreadCPUClock.now()
            for i in 0..<n { checksum += body(queries[i]) }
            samples.append((ThreadCPUClock.now() - start) / Double(n) * 1e6)
        }
        return Timing(microseconds: Statistics.median(samples), queries: n, checksum: checksum)
    }
}

extension Int {
    /// 144563 -> "144,563".
    var grouped: String {
        let digits = Array(String(self.magnitude))
        var text = ""
        for (i, digit) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { text.append(",") }
            text.append(digit)
        }
        return self < 0 ? "-" + text : text
    }
}
