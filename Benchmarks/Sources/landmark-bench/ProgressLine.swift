#if canImport(Glibc)
import Glibc
#endif

/// A one-line progress report on stderr, rewritten in place (`\r`) at most a few times a second.
struct ProgressLine {
    private let label: String
    private let total: Int
    private var lastPrint = 0.0

    init(_ label: String, total: Int) {
        self.label = label
        self.total = total
    }

    mutating func update(_ done: Int) {
        let now = MonotonicClock.now()
        guard now - lastPrint >= 0.25 || done == total else { return }
        lastPrint = now
        let percent = total > 0 ? done * 100 / total : 100
        Stderr.write("\r\(label): \(done)/\(total) (\(percent)%)")
    }

    func finish(_ note: String = "") {
        Stderr.write("\r\(label): \(total)/\(total) done\(note.isEmpty ? "" : " — " + note)\u{1B}[K\n")
    }
}

/// Unbuffered writes to stderr.
enum Stderr {
    static func write(_ text: String) {
        var copy = text
        copy.withUTF8 { bytes in _ = Glibc.write(2, bytes.baseAddress, bytes.count) }
    }

    static func line(_ text: String) { write(text + "\n") }
}
