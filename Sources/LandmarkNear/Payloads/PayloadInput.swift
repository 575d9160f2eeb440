#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads payload files and stdin with a size cap, so a 10 MB or endless input is refused
/// without being held in memory.
///
///     let bytes = try PayloadInput.readFile("a.apns")
///     let stdin = try PayloadInput.readDescriptor(0, name: "<stdin>")
public enum PayloadInput {
    /// Reads the whole file; throws `.missing` when it does not exist, `.tooLarge` past `limit`.
    public static func readFile(_ path: String, limit: Int = PayloadParser.maximumInputBytes) throws(PayloadInputError) -> [UInt8] {
        let fd = try openFile(path)
        defer { close(fd) }
        return try readDescriptor(fd, name: path, limit: limit)
    }

    /// Opens a file for reading (the caller closes the descriptor); a missing file, a directory
    /// or an unreadable file is an error that says which.
    public static func openFile(_ path: String) throws(PayloadInputError) -> Int32 {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            let code = errno
            if code == ENOENT || code == ENOTDIR {
                throw PayloadInputError(source: path, kind: .missing, reason: "no such file")
            }
            throw PayloadInputError(source: path, kind: .unreadable, reason: "cannot be opened: " + String(cString: strerror(code)))
        }
        var info = stat()
        if fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
            close(fd)
            throw PayloadInputError(source: path, kind: .unreadable, reason: "is a directory, not a payload file")
        }
        return fd
    }

    /// Reads a descriptor to its end (stdin: `0`), refusing more than `limit` bytes.
    public static func readDescriptor(_ fd: Int32, name: String, limit: Int = PayloadParser.maximumInputBytes) throws(PayloadInputError) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw PayloadInputError(source: name, kind: .unreadable, reason: "read failed: " + String(cString: strerror(errno)))
            }
            if count == 0 { return bytes }
            bytes.append(contentsOf: chunk[0..<count])
            if bytes.count > limit {
                var info = stat()
                let size = fstat(fd, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG ? Int(info.st_size) : nil
                throw PayloadInputError(source: name, kind: .tooLarge,
                                        reason: "is \(size.map { "\($0) bytes" } ?? "more than \(limit) bytes"), far too large for a "
                                            + "notification payload (APNs allows \(APNsPayload.maximumBytes) bytes; "
                                            + "inputs over \(limit) bytes are refused)")
            }
        }
    }
}

/// An input that could not be read.
public struct PayloadInputError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// The file does not exist (exit status 66).
        case missing
        /// It exists but cannot be read, or is a directory (exit status 66).
        case unreadable
        /// Over the size cap (a data error, exit status 65).
        case tooLarge
    }

    public var source: String
    public var kind: Kind
    public var reason: String

    public init(source: String, kind: Kind, reason: String) {
        self.source = source
        self.kind = kind
        self.reason = reason
    }

    public var description: String { "\(source): \(reason)" }
}

/// Splits a descriptor into lines (for `parse --ndjson` on stdin) without holding more than
/// one line; a line longer than `limit` is reported as too long and skipped.
///
///     var lines = PayloadLines(descriptor: 0, name: "<stdin>")
///     while let line = try lines.next() { ... }   // line.number, line.bytes, line.isTooLong
public struct PayloadLines {
    public struct Line: Sendable {
        /// 1-based line number.
        public var number: Int
        public var bytes: [UInt8]
        /// The line was longer than the limit; `bytes` holds only its start.
        public var isTooLong: Bool
    }

    private let descriptor: Int32
    private let name: String
    private let limit: Int
    private var buffer: [UInt8] = []
    private var start = 0
    private var atEnd = false
    private var lineNumber = 0

    public init(descriptor: Int32, name: String = "<stdin>", limit: Int = PayloadParser.maximumInputBytes) {
        self.descriptor = descriptor
        self.name = name
        self.limit = limit
    }

    public mutating func next() throws(PayloadInputError) -> Line? {
        var tooLong = false
        var kept: [UInt8] = []
        while true {
            if let newline = buffer[start...].firstIndex(of: 0x0A) {
                let piece = buffer[start..<newline]
                start = newline + 1
                lineNumber += 1
                if !tooLong { kept.append(contentsOf: piece) }
                if kept.count > limit { tooLong = true; kept.removeSubrange(limit...) }
                if kept.last == 0x0D { kept.removeLast() }
                return Line(number: lineNumber, bytes: kept, isTooLong: tooLong)
            }
            // No newline yet: keep what is pending (up to the limit) and read more.
            if !tooLong { kept.append(contentsOf: buffer[start...]) }
            if kept.count > limit { tooLong = true; kept.removeSubrange(limit...) }
            buffer.removeAll(keepingCapacity: true)
            start = 0
            if atEnd {
                if kept.isEmpty && !tooLong { return nil }
                lineNumber += 1
                return Line(number: lineNumber, bytes: kept, isTooLong: tooLong)
            }
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress!, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw PayloadInputError(source: name, kind: .unreadable, reason: "read failed: " + String(cString: strerror(errno)))
            }
            if count == 0 { atEnd = true } else { buffer.append(contentsOf: chunk[0..<count]) }
        }
    }
}
