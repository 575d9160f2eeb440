#if canImport(Glibc)
import Glibc
#endif

/// An exclusive `flock` on `<state file>-lock`, held for as long as this object lives: a
/// second process on the same state file is refused at once, with the holder's pid. The lock
/// file holds that pid; the kernel drops the lock when the process dies, even by `kill -9`.
final class StateLock {
    private let descriptor: Int32

    init(statePath: String) throws(StateError) {
        // Beside the file the path leads to, symbolic links followed (as SQLite follows them):
        // `--state link.db` and `--state real.db` are one state file and take one lock.
        let path = StateLock.resolved(statePath) + "-lock"
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            let code = errno
            // The usual cause: a directory that does not exist. Said of the state file the user
            // named, not of the lock file beside it that they never wrote.
            if code == ENOENT {
                let parent = String(statePath.reversed().drop { $0 != "/" }.reversed().dropLast())
                let directory = !statePath.contains("/") ? "." : parent.isEmpty ? "/" : parent
                throw StateError(.io, path: statePath, reason: "the directory \(directory) does not exist (create it first)")
            }
            throw StateError(.io, path: path, reason: "cannot open the lock file: \(String(cString: strerror(code)))")
        }
        if flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            let code = errno
            var bytes = [UInt8](repeating: 0, count: 32)
            let count = pread(descriptor, &bytes, bytes.count, 0)
            close(descriptor)
            if code == EWOULDBLOCK {
                let pid = count > 0 ? String(decoding: bytes[..<count], as: UTF8.self).filter(\.isNumber) : ""
                throw StateError(
                    .temporaryFailure, path: statePath,
                    reason: "in use by another landmark-near process" + (pid.isEmpty ? "" : " (pid \(pid))")
                        + "; one process at a time may use a state file")
            }
            throw StateError(.io, path: path, reason: "cannot lock: \(String(cString: strerror(code)))")
        }
        let pid = Array("\(getpid())\n".utf8)
        _ = ftruncate(descriptor, 0)
        _ = pwrite(descriptor, pid, pid.count, 0)
        self.descriptor = descriptor
    }

    /// The path with every symbolic link resolved; for a file not made yet, its directory's.
    static func resolved(_ path: String) -> String {
        if let real = realpath(path, nil) {
            defer { free(real) }
            return String(cString: real)
        }
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        guard let real = realpath(directory, nil) else { return path }
        defer { free(real) }
        let base = String(cString: real)
        return (base.hasSuffix("/") ? base : base + "/") + name
    }

    deinit {
        // Closing releases the lock; the file stays (removing it would race a new locker).
        close(descriptor)
    }
}
