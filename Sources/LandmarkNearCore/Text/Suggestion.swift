/// "Did you mean" for mistyped commands and options: the candidate within a small edit
/// distance of what was typed (`--radious` -> `--radius`, `wacth` -> `watch`).
package enum Suggestion {
    /// The closest candidate, when it is at most about a third of the typed length away
    /// (at least one edit); nil when nothing is that close, two candidates tie, or fewer than
    /// three characters were typed (any one-letter option is one edit from every other).
    ///
    ///     Suggestion.closest(to: "radious", among: ["radius", "events"])   // "radius"
    package static func closest(to typed: String, among candidates: some Sequence<String>) -> String? {
        let typedBytes = Array(typed.lowercased().utf8)
        guard typedBytes.count >= 3 else { return nil }
        let limit = max(1, typedBytes.count / 3)
        var best: (candidate: String, distance: Int)?
        var tie = false
        for candidate in candidates {
            let candidateBytes = Array(candidate.lowercased().utf8)
            // The distance is at least the difference in length: a candidate too short or too
            // long is out without the table, which for a 1 MiB unknown key would be 20 million
            // cells a candidate.
            guard abs(typedBytes.count - candidateBytes.count) <= limit else { continue }
            let distance = editDistance(typedBytes, candidateBytes)
            guard distance <= limit else { continue }
            if let current = best, distance == current.distance {
                tie = tie || current.candidate != candidate
            } else if best == nil || distance < best!.distance {
                best = (candidate, distance)
                tie = false
            }
        }
        return tie ? nil : best?.candidate
    }

    /// A ", did you mean 'X'?" suffix, or "" when there is no close candidate.
    package static func suffix(for typed: String, among candidates: some Sequence<String>, prefix: String = "") -> String {
        guard let match = closest(to: typed, among: candidates) else { return "" }
        return "; did you mean '\(prefix)\(match)'?"
    }

    /// Optimal string alignment distance: insertions, deletions, substitutions and swaps of
    /// two neighbours (the commonest typo) each cost 1.
    private static func editDistance(_ a: [UInt8], _ b: [UInt8]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var before = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    value = min(value, before[j - 2] + 1)
                }
                current[j] = value
            }
            (before, previous, current) = (previous, current, before)
        }
        return previous[b.count]
    }
}
