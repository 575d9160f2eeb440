import Foundation

/// The peers' figures (`Benchmarks/out/peers.json`, written by `Benchmarks/peers/run.sh`):
/// one entry per (key, peer), keys named as ours (`index.nearest.cities`, `watch.ndjson`, ...).
struct PeerResults: Decodable {
    struct Entry: Decodable {
        var key: String
        var peer: String
        var value: Double
        var unit: String
        var note: String?
    }

    var results: [Entry]
    var python: String?

    /// One entry per (key, peer): the median of its values over `runs`.
    static func medianByKey(_ runs: [PeerResults]) -> PeerResults {
        var values: [String: [Double]] = [:]
        var first: [String: Entry] = [:]
        var order: [String] = []
        for run in runs {
            for entry in run.results {
                let id = entry.key + "\u{0}" + entry.peer
                if first[id] == nil {
                    first[id] = entry
                    order.append(id)
                }
                values[id, default: []].append(entry.value)
            }
        }
        let entries = order.map { id -> Entry in
            var entry = first[id]!
            entry.value = Statistics.median(values[id]!)
            if runs.count > 1 {
                let note = entry.note ?? ""
                entry.note = (note.isEmpty ? "" : note + "; ") + "median of \(values[id]!.count) interleaved passes"
            }
            return entry
        }
        return PeerResults(results: entries, python: runs.first?.python)
    }

    static func load(path: String) -> PeerResults? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        do {
            return try JSONDecoder().decode(PeerResults.self, from: data)
        } catch {
            Stderr.line("landmark-bench: ignoring \(path): \(error)")
            return nil
        }
    }
}
