import Foundation

/// The Markdown table of our figures, each followed by the peers' figures for the same key
/// and how we compare: ×N means LandmarkNear is N times faster (times, rates) or smaller
/// (bytes); below ×1 the peer wins. Peers' figures whose key starts with one of `prefixes`
/// but that we have no figure for are listed at the end.
enum ReportTable {
    static func markdown(ours: [Measurement], peers: PeerResults?, prefixes: [String] = ["index.", "watch."],
                         notes: [String] = []) -> String {
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
                lines.append("| \(first ? m.what : "") | \(first ? m.dataset : "") | \(first ? ourCell : "") | \(peer.peer)\(peer.note.map { " <sub>\($0)</sub>" } ?? "") | \(format(peer.value, unit: peer.unit)) | \(ratio(ours: m, peer: peer)) |")
            }
        }
        for peer in peerEntries {
            lines.append("| \(peer.key) | | — | \(peer.peer)\(peer.note.map { " <sub>\($0)</sub>" } ?? "") | \(format(peer.value, unit: peer.unit)) | |")
        }
        lines.append("\n×N: LandmarkNear is N times faster (time, rate) or smaller (bytes) than the peer; below ×1 the peer wins.")
        if peers == nil { lines.append("(no peers figures: run `bash Benchmarks/peers/run.sh` to add them)") }
        lines += notes
        return lines.joined(separator: "\n")
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
        return String(format: "×%.2f", speedup)
    }
}
