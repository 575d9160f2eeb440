/// Medians and friends for repeated measurements.
enum Statistics {
    static func median(_ values: [Double]) -> Double {
        precondition(!values.isEmpty, "median of no values")
        let sorted = values.sorted()
        let mid = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
    }

    /// One measurement per key over `runs` (in the first run's order): the median of its
    /// values, with the passes counted in its note.
    static func medianByKey(_ runs: [[Measurement]]) -> [Measurement] {
        guard let first = runs.first else { return [] }
        guard runs.count > 1 else { return first }
        var values: [String: [Double]] = [:]
        for run in runs { for m in run { values[m.key, default: []].append(m.value) } }
        return first.map { m in
            var merged = m
            let all = values[m.key] ?? [m.value]
            merged.value = median(all)
            merged.note = (m.note.isEmpty ? "" : m.note + "; ") + "median of \(all.count) interleaved passes"
            return merged
        }
    }
}
