#if canImport(Glibc)
import Glibc
#endif

/// Runs a program as a child process with stdin from a file, stdout to /dev/null and stderr
/// to a file, and reports its wall time (CLOCK_MONOTONIC around posix_spawn … wait4) and its
/// peak resident set size.
///
/// Peak RSS, two readings:
/// - `peakRSSBytes`: the child's `VmHWM` from `/proc/<pid>/status`, polled every millisecond
///   while it runs (VmHWM only grows, so this misses at most the growth of the child's last
///   millisecond). It belongs to the image that `exec` made, so it is the child's own peak.
/// - `maxRSSBytes`: wait4's `rusage.ru_maxrss` (KiB on Linux). Linux folds into it the memory
///   of the image that `exec` replaced — with posix_spawn, landmark-bench's own RSS (tens or
///   hundreds of MiB once it has loaded a million landmarks) — so it is only an upper bound.
struct ChildProcess {
    struct Outcome {
        var status: Int32  // exit status, or 128 + signal
        var seconds: Double
        var peakRSSBytes: Int
        var maxRSSBytes: Int
        var stderr: String
        /// User + system CPU time of the child (wait4's rusage): what a loaded machine's wall
        /// time hides.
        var cpuSeconds: Double = 0
    }

    static func run(_ executable: String, _ arguments: [String], stdin: String, stderrPath: String) throws(BenchError) -> Outcome {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, stdin, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, stderrPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)

        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }

        var pid: pid_t = 0
        let start = MonotonicClock.now()
        let spawned = argv.withUnsafeBufferPointer { args in
            posix_spawn(&pid, executable, &actions, nil, args.baseAddress!, environ)
        }
        guard spawned == 0 else {
            throw BenchError("cannot start \(executable): \(String(cString: strerror(spawned)))")
        }
        let statusPath = "/proc/\(pid)/status"
        var status: Int32 = 0
        var usage = rusage()
        var peak = 0
        while true {
            let reaped = wait4(pid, &status, WNOHANG, &usage)
            if reaped == pid { break }
            if reaped < 0 {
                guard errno == EINTR else { throw BenchError("wait4: \(String(cString: strerror(errno)))") }
                continue
            }
            peak = max(peak, highWaterMark(statusPath))
            usleep(1_000)
        }
        let seconds = MonotonicClock.now() - start
        let exitStatus: Int32 = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        let errText = (try? String(contentsOfFileAtPath: stderrPath)) ?? ""
        let cpu =
            Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
            + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
        return Outcome(
            status: exitStatus, seconds: seconds, peakRSSBytes: peak,
            maxRSSBytes: Int(usage.ru_maxrss) * 1024, stderr: errText, cpuSeconds: cpu)
    }

    /// `VmHWM` of `/proc/<pid>/status` in bytes (0 once the process has exited).
    static func highWaterMark(_ statusPath: String) -> Int {
        let fd = open(statusPath, O_RDONLY)
        guard fd >= 0 else { return 0 }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard n > 0 else { return 0 }
        let text = String(decoding: buffer.prefix(n), as: UTF8.self)
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }) else { return 0 }
        let kib = line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first.flatMap { Int($0) } ?? 0
        return kib * 1024
    }
}

extension String {
    /// The file's text, lossily decoded (bounded: the last 64 KiB).
    init(contentsOfFileAtPath path: String) throws(BenchError) {
        guard let file = fopen(path, "rb") else { throw BenchError("cannot open \(path)") }
        defer { fclose(file) }
        fseek(file, 0, SEEK_END)
        let size = ftell(file)
        let keep = Swift.min(size, 65_536)
        fseek(file, size - keep, SEEK_SET)
        var bytes = [UInt8](repeating: 0, count: keep)
        let read = bytes.withUnsafeMutableBytes { raw in fread(raw.baseAddress, 1, keep, file) }
        self = String(decoding: bytes.prefix(read), as: UTF8.self)
    }
}
