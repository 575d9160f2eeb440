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
