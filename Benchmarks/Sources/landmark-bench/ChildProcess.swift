#if canImport(Glibc)
import Glibc
#endif

/// Runs a program as a child process with stdin from a file, stdout to /dev/null and stderr
/// to a file, and reports its wall time (CLOCK_MONOTONIC around posix_spawn … wait4) and its
/// peak resident set size (wait4's `rusage.ru_maxrss`, which Linux gives in KiB).
struct ChildProcess {
    struct Outcome {
        var status: Int32        // exit status, or 128 + signal
        var seconds: Double
        var peakRSSBytes: Int
        var stderr: String
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
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 {
            guard errno == EINTR else { throw BenchError("wait4: \(String(cString: strerror(errno)))") }
        }
        let seconds = MonotonicClock.now() - start
        let exitStatus: Int32 = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        let errText = (try? String(contentsOfFileAtPath: stderrPath)) ?? ""
        return Outcome(status: exitStatus, seconds: seconds, peakRSSBytes: Int(usage.ru_maxrss) * 1024, stderr: errText)
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
