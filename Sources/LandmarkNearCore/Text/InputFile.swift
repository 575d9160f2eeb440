import Glibc

/// Opening and reading whole inputs (catalogs, profiles, `.strings` tables, payloads): one
/// place that decides what "cannot open" means, so every command gives the same status for
/// the same input. A missing file, a directory or a file that may not be read cannot be
/// opened (`.missingInput`); a failed read is `.io`; more bytes than `limit` are `.badData`,
/// refused without being held in memory. Pipes, FIFOs and `/dev/stdin` are read once, in full.
///
///     let bytes = try InputFile.read(path: "landmarkData.json")
///     let payload = try InputFile.read(descriptor: 0, source: "<stdin>", limit: 1 << 20)
package enum InputFile {
    /// Opens `path` for reading (the caller closes the descriptor).
    package static func open(_ path: String) throws(InputError) -> Int32 {
        let descriptor = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw InputError.system("open", source: path, errno: errno) }
        var info = stat()
        if fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
            close(descriptor)
            throw InputError.system("open", source: path, errno: EISDIR)
        }
        return descriptor
    }

    /// The whole file. `tooLarge` says why more than `limit` bytes are refused; the reason
    /// reads "is N bytes, <tooLarge>".
    package static func read(path: String, limit: Int = .max, tooLarge: String? = nil) throws(InputError) -> [UInt8] {
        let descriptor = try open(path)
        defer { close(descriptor) }
        return try read(descriptor: descriptor, source: path, limit: limit, tooLarge: tooLarge)
    }

    /// A descriptor read to its end (stdin: `0`), refusing more than `limit` bytes.
    package static func read(descriptor: Int32, source: String, limit: Int = .max, tooLarge: String? = nil) throws(InputError) -> [UInt8] {
        var info = stat()
        let isRegular = fstat(descriptor, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
        var bytes: [UInt8] = []
        if isRegular { bytes.reserveCapacity(min(Int(info.st_size), limit) + 1) }
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress!, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw InputError.system("read", source: source, errno: errno)
            }
            if count == 0 { return bytes }
            bytes.append(contentsOf: chunk[0..<count])
            if bytes.count > limit {
                let size = isRegular ? "\(info.st_size) bytes" : "more than \(limit) bytes"
                let why = tooLarge ?? "more than the \(limit) bytes accepted"
                throw InputError(source: source, reason: "is \(size), \(why)", kind: .badData)
            }
        }
    }
}
