/// `--name value` options of a subcommand; anything else is a usage error.
struct Options {
    private var values: [String: String] = [:]

    init(_ arguments: [String], allowed: Set<String>) throws(BenchError) {
        var rest = arguments[...]
        while let name = rest.popFirst() {
            guard name.hasPrefix("--"), allowed.contains(String(name.dropFirst(2))) else {
                throw BenchError("unknown option '\(name)' (options: \(allowed.sorted().map { "--" + $0 }.joined(separator: ", ")))")
            }
            guard let value = rest.popFirst() else { throw BenchError("\(name) needs a value") }
            values[String(name.dropFirst(2))] = value
        }
    }

    func string(_ name: String, default fallback: String) -> String { values[name] ?? fallback }

    func int(_ name: String, default fallback: Int) throws(BenchError) -> Int {
        guard let raw = values[name] else { return fallback }
        guard let value = Int(raw.replacingOccurrences(of: "_", with: "")), value > 0 else {
            throw BenchError("--\(name) needs a positive integer, not '\(raw)'")
        }
        return value
    }
}
