import Glibc

/// Reads a whole file with open(2) and read(2) until its end, so that catalogs and profiles
/// can come from a pipe, a FIFO or `/dev/stdin` as well as from a regular file (SPEC §1: read
/// once, in full). Foundation's `contents(atPath:)` refuses what it cannot stat to a size.
///
///     let bytes = try WholeFile.read("/dev/stdin")
enum WholeFile {
    /// More than this is not a catalog or profiles file (and would be memory taken by a stream
    /// that never ends).
    static let maximumBytes = 1 << 30

    enum Failure: Error, Equatable {
        case missing
        case unreadable(String)
        case tooLarge
    }

    static func read(_ path: String) throws(Failure) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw errno == ENOENT ? .missing : .unreadable(String(cString: strerror(errno)))
        }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count == 0 { return bytes }
            if count < 0 {
                if errno == EINTR { continue }
                throw .unreadable(String(cString: strerror(errno)))
            }
            guard bytes.count + count <= maximumBytes else { throw .tooLarge }
            bytes.append(contentsOf: chunk[0..<count])
        }
    }
}
