import Foundation

/// The Markdown table of our figures, each followed by the peers' figures for the same key
/// and how we compare: ×N means LandmarkNear is N times faster (times, rates) or smaller
/// (bytes); below ×1 the peer wins. Peers' figures whose key starts with one of `prefixes`
/// but that we have no figure for are listed at the end.
enum ReportTable {
    static func markdown(
        ours: [Measurement], peers: PeerResults?, prefixes: [String] = ["index.", "watch."],
        notes: [String] = []
    ) -> String {
        var lines = [
            "| Measure | Data | LandmarkNear | Peer | Peer figure | LandmarkNear advantage |",
            "|---|---|---:|---|---:|---:|",
        ]
        var peerEntries = (peers?.results ?? []).filter { entry in prefixes.contains { entry.key.hasPrefix($0) } }
        for m in ours {
            let matching = peerEntries.filter { $0.key == m.key }
            peerEntries.removeAll { $0.key == m.key }
            let ourCell = format(m.value, unit: m.unit) + (m.note.isEmpty ? "" : " <sub>\(m.note)</sub>")
            if matching.isEmpty {
                lines.append("| \(m.what) | \(m.dataset) | \(ourCell) | | | |")
            }
            for (i, peer) in matching.enumerated() {
                let first = i == 0
                lines.append(
                    "| \(first ? m.what : "") | \(first ? m.dataset : "") | \(first ? ourCell : "") | \(peer.peer)\(peer.note.map { " <sub>\($0)</sub>" } ?? "") | \(format(peer.value, unit: peer.unit)) | \(ratio(ours: m, peer: peer)) |"
                )
            }
        }
        for peer in peerEntries {
            let (what, data) = describe(peer.key)
            lines.append(
                "| \(what) | \(data) | — | \(peer.peer)\(peer.note.map { " <sub>\($0)</sub>" } ?? "") | \(format(peer.value, unit: peer.unit)) | |"
            )
        }
        lines.append("\n×N: LandmarkNear is N times faster (time, rate) or smaller (bytes) than the peer; below ×1 the peer wins.")
        if peers == nil { lines.append("(no peers figures: run `bash Benchmarks/peers/run.sh` to add them)") }
        lines += notes
        return lines.joined(separator: "\n")
    }

    /// One row per figure of ours, one column per peer: `figure (×advantage)`. The notes
    /// (query counts, batched or per call, ...) are in `markdown`'s detailed table.
    static func matrix(ours: [Measurement], peers: PeerResults?, prefixes: [String] = ["index.", "watch."]) -> String {
        let entries = (peers?.results ?? []).filter { entry in prefixes.contains { entry.key.hasPrefix($0) } }
        var names: [String] = []
        for entry in entries where !names.contains(entry.peer) { names.append(entry.peer) }
        var lines = [
            "| Measure | Data | LandmarkNear |" + names.map { " \($0) |" }.joined(),
            "|---|---|---:|" + String(repeating: "---:|", count: names.count),
        ]
        func cells(_ key: String, _ ours: Measurement?) -> String {
            names.map { name in
                guard let entry = entries.first(where: { $0.key == key && $0.peer == name }) else { return " |" }
                let advantage = ours.map { ratio(ours: $0, peer: entry) } ?? ""
                return " \(format(entry.value, unit: entry.unit))\(advantage.isEmpty ? "" : " (\(advantage))") |"
            }.joined()
        }
        var seen = Set<String>()
        for m in ours where !seen.contains(m.key) {
            seen.insert(m.key)
            lines.append("| \(m.what) | \(m.dataset) | \(format(m.value, unit: m.unit)) |" + cells(m.key, m))
        }
        for key in entries.map(\.key) where !seen.contains(key) {
            seen.insert(key)
            let (what, data) = describe(key)
            lines.append("| \(what) | \(data) | — |" + cells(key, nil))
        }
        return lines.joined(separator: "\n")
    }

    /// Measure and data names for a key we have no figure of (e.g. `watch.ndjson` while watch
    /// is not built).
    static func describe(_ key: String) -> (String, String) {
        let parts = key.split(separator: ".").map(String.init)
        guard parts.count >= 2 else { return (key, "") }
        switch (parts[0], parts[1]) {
        case ("watch", "startup"): return ("watch start-up", "GeoNames catalog")
        case ("watch", "ndjson"): return ("watch end to end", "NDJSON, 10k devices")
        case ("watch", let load): return ("watch end to end", load)
        case ("index", let what):
            let names = ["build": "build", "bytes": "memory per landmark", "nearest": "nearest k=1", "within": "within 5 mi"]
            return (names[what] ?? what, parts.count > 2 ? parts[2] : "")
        default: return (key, "")
        }
    }

    static func format(_ value: Double, unit: String) -> String {
        guard value.isFinite else { return "n/a" }
        let digits: Int
        switch value.magnitude {
        case 1000...: digits = 0
        case 100..<1000: digits = 1
        case 10..<100: digits = 2
        default: digits = 3
        }
        var text = String(format: "%.\(digits)f", value)
        if value.magnitude >= 10_000, let whole = Int(exactly: value.rounded()) { text = whole.grouped }
        return text + " " + unit
    }

    static func ratio(ours: Measurement, peer: PeerResults.Entry) -> String {
        guard ours.unit == peer.unit, ours.value > 0, peer.value > 0 else { return "" }
        let speedup = ours.higherIsBetter ? ours.value / peer.value : peer.value / ours.value
        switch speedup {
        case 1000...: return "×" + Int(speedup.rounded()).grouped
        case 100..<1000: return String(format: "×%.0f", speedup)
        case 10..<100: return String(format: "×%.1f", speedup)
        case 0.01..<10: return String(format: "×%.2f", speedup)
        default: return String(format: "×%.1g", speedup)
        }
    }
}
