#if canImport(Glibc)
import Glibc
#endif

/// Where a file that a command writes (`--out`, `--geojson`) really goes, so that writing it
/// replaces no more than the user named:
/// - a symbolic link is followed, and the file it leads to is replaced (the link stays a
///   link, as `cp` and shell redirection treat it);
/// - something that is not a regular file — a FIFO, `/dev/stdout`, a terminal, `/dev/null` —
///   is written to in place, never renamed over (a temporary file renamed over `/dev/full`
///   would replace the device itself when run as root);
/// - anything else (a regular file, or nothing yet) is written atomically, as a temporary file
///   beside it renamed into place, so that a reader never sees half of it.
///
///     switch OutputFile.target(of: "run.html") {
///     case .replace(let path): ...   // write a temporary file beside `path`, rename it
///     case .inPlace(let path): ...   // open `path` for writing and write
///     }
package enum OutputFile: Equatable, Sendable {
    case replace(String)
    case inPlace(String)

    package static func target(of path: String) -> OutputFile {
        var info = stat()
        guard stat(path, &info) == 0 else { return .replace(path) }  // nothing there yet (or a dangling link)
        let resolved: String
        if let real = realpath(path, nil) {
            resolved = String(cString: real)
            free(real)
        } else {
            resolved = path
        }
        return (info.st_mode & S_IFMT) == S_IFREG ? .replace(resolved) : .inPlace(resolved)
    }

    /// Why a file could not be written at `path`, found before a command reads its first input
    /// (a live stream may run for hours before its `--out` or `--geojson` is written); nil when
    /// it can be: the path is not a directory, and the directory it goes in exists, is a
    /// directory and takes new files. Nothing is created.
    package static func problemCreating(_ path: String) -> String? {
        var status = stat()
        if stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR { return "is a directory; give a file name" }
        guard case .replace(let file) = target(of: path) else { return nil }
        let directory: String
        if let slash = file.lastIndex(of: "/") {
            directory = slash == file.startIndex ? "/" : String(file[..<slash])
        } else {
            directory = "."
        }
        let shown = TerminalText.safe(directory)
        guard stat(directory, &status) == 0 else { return "the directory \(shown) does not exist (create it first)" }
        guard status.st_mode & S_IFMT == S_IFDIR else { return "\(shown) is not a directory" }
        guard access(directory, W_OK | X_OK) == 0 else { return "cannot create files in \(shown): \(String(cString: strerror(errno)))" }
        return nil
    }

    /// Writes `bytes` to a target that is not a regular file, in place; nil when it worked,
    /// else the reason.
    package static func writeInPlace(_ bytes: [UInt8], to path: String) -> String? {
        let descriptor = open(path, O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return "cannot open: \(String(cString: strerror(errno)))" }
        defer { close(descriptor) }
        var offset = 0
        while offset < bytes.count {
            let count = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress! + offset, $0.count - offset) }
            if count < 0 {
                if errno == EINTR { continue }
                return "write failed: \(String(cString: strerror(errno)))"
            }
            offset += count
        }
        return nil
    }
}
