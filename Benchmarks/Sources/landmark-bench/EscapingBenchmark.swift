import Foundation

/// Issue 43: the throughput of `landmark-near watch` on lines of 1 MiB whose device name is
/// nothing but characters JSON must escape (backslashes, quotes, control characters), each
/// line a new device that enters a favourite, so each is printed back as an event line. The
/// escaping of old appended each escape by copying the whole output: O(n²) in a line, 7-18 s
/// for one such line. The figure is input bytes per second (in MiB/s), start-up included.
enum EscapingBenchmark {
    static let lines = 32

    /// The file (made once under `scratch`): `lines` lines just under the 1 MiB line limit.
    static func file(scratch: String) -> String {
        let path = scratch + "/escaping.ndjson"
        if FileManager.default.fileExists(atPath: path) { return path }
        // `\\`, `\"` and `\u001b` in the JSON text: one backslash, one quote, one ESC.
        let unit = #"\\\"\u001b"#
        let body = String(repeating: unit, count: (1_048_000 - 100) / unit.utf8.count)
        var text = ""
        for line in 0..<lines {
            text += "{\"device\":\"\(line)-\(body)\",\"lat\":34.0495933,\"lon\":-116.0931883}\n"
        }
        _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
        return path
    }

    /// Median bytes per second of `reps` runs of `binary`.
    static func measure(binary: String, scratch: String, reps: Int) throws(BenchError) -> Measurement {
        let path = file(scratch: scratch)
        let bytes = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        var times: [Double] = []
        for rep in 0..<reps {
            Stderr.write("\rwatch escaping: run \(rep + 1)/\(reps)…\u{1B}[K")
            let outcome = try ChildProcess.run(
                binary, ["watch", "--format", "ndjson", "--favorites", "all"], stdin: path, stderrPath: scratch + "/escaping.err")
            guard outcome.status == 0 else {
                Stderr.line("")
                throw BenchError("landmark-near watch exited \(outcome.status) on \(path): \(outcome.stderr.suffix(400))")
            }
            times.append(outcome.seconds)
        }
        let seconds = Statistics.median(times)
        Stderr.line(String(format: "\rwatch escaping: %.3f s, %.1f MiB/s\u{1B}[K", seconds, Double(bytes) / seconds / 1_048_576))
        return Measurement(
            key: "watch.escaping", what: "watch, lines of 1 MiB to escape",
            dataset: "\(lines) lines of backslashes, quotes and ESC", value: Double(bytes) / seconds / 1_048_576, unit: "MiB/s",
            note: "\(bytes.grouped) bytes in, each line printed back escaped; median of \(reps), start-up included")
    }
}
