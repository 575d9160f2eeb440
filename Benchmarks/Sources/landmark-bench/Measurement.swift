import Foundation

/// One figure of ours, as stored in `Benchmarks/out/bench.json` and shown in the table.
/// `key` names what is measured the same way the peers script names it in `peers.json`
/// (e.g. `index.nearest.cities`, `watch.ndjson`), so the two can be set side by side.
struct Measurement: Codable, Sendable {
    var key: String
    var what: String
    var dataset: String
    var value: Double
    var unit: String
    var note: String = ""

    /// For time-like units smaller is better; for rates larger is.
    var higherIsBetter: Bool { unit.hasSuffix("/s") }
}

/// Our figures of the last runs (`bench.json`): a run of `index` replaces the `index.*` keys,
/// a run of `watch` the `watch.*` keys.
struct BenchResults: Codable {
    var machine: MachineInfo
    var measurements: [Measurement]

    static func load(path: String) -> BenchResults? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return try? JSONDecoder().decode(BenchResults.self, from: data)
    }

    static func merge(_ new: [Measurement], prefix: String, path: String) {
        var results = load(path: path) ?? BenchResults(machine: .current, measurements: [])
        results.machine = .current
        results.measurements.removeAll { $0.key.hasPrefix(prefix) }
        results.measurements += new
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        if let data = try? encoder.encode(results) {
            _ = FileManager.default.createFile(atPath: path, contents: data)
        }
    }
}

/// The machine a run was made on: cores and CPU model.
struct MachineInfo: Codable, Sendable {
    var cores: Int
    var cpu: String

    static var current: MachineInfo {
        var model = "unknown"
        if let text = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8),
            let line = text.split(separator: "\n").first(where: { $0.hasPrefix("model name") }),
            let colon = line.firstIndex(of: ":")
        {
            model = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return MachineInfo(cores: ProcessInfo.processInfo.activeProcessorCount, cpu: model)
    }
}
