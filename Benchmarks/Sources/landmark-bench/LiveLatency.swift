import Foundation

/// `watch --state` on a live pipe: how long a notification takes to reach stdout after the
/// line of the fix that causes it was written (docs/reference/state.md: within 100 ms). A producer writes one
/// fix every 100 ms, alternately inside and far from Turtle Rock (the embedded catalog), so
/// every other fix notifies; the figure is the median delay, with the maximum in the note.
enum LiveLatency {
    static let notifications = 20

    static func measure(binary: String, scratch: String) -> Measurement? {
        let state = scratch + "/latency.db"
        for suffix in ["", "-wal", "-shm", "-lock"] { try? FileManager.default.removeItem(atPath: state + suffix) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["watch", "--format", "ndjson", "--cooldown", "0", "--state", state]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return nil }
        let reader = output.fileHandleForReading
        var delays: [Double] = []
        var pending = Data()
        for step in 0..<(2 * notifications) {
            let near = step % 2 == 0
            let line = "{\"device\":\"car\",\"lat\":\(near ? 34.011286 : 34.5),\"lon\":-116.166868,\"time\":\(1_777_636_800 + step * 60)}\n"
            let written = MonotonicClock.now()
            try? input.fileHandleForWriting.write(contentsOf: Data(line.utf8))
            if near {
                while !pending.contains(0x0A) {
                    let chunk = reader.availableData
                    if chunk.isEmpty { break }
                    pending.append(chunk)
                }
                delays.append(MonotonicClock.now() - written)
                if let newline = pending.firstIndex(of: 0x0A) { pending.removeSubrange(...newline) }
            }
            usleep(100_000)
        }
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
        guard delays.count == notifications else { return nil }
        let median = Statistics.median(delays)
        Stderr.line(String(format: "live latency with --state: median %.1f ms, max %.1f ms", median * 1000, (delays.max() ?? 0) * 1000))
        return Measurement(
            key: "watch.state.latency", what: "live notification latency, --state", dataset: "pipe, one fix per 100 ms",
            value: median * 1000, unit: "ms",
            note: String(
                format: "median of %d, max %.1f ms (fix line written -> its line read from stdout)",
                notifications, (delays.max() ?? 0) * 1000))
    }
}
