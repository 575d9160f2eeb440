#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Buffered writes to a file descriptor (stdout by default). Lines are collected and written
/// in large blocks; `flush()` pushes them out (the watch command flushes after each fix that
/// produced output, so a live stream shows notifications at once).
///
///     let out = OutputWriter()
///     out.writeLine(#"{"event":"enter"}"#)
///     try out.flush()
public final class OutputWriter {
    private let descriptor: Int32
    /// The bytes not yet written are the first `count` of `room`, a block this writer owns.
    /// Not a `[UInt8]`: `writeLine(maximumBytes:_:)` writes a line straight into it, which an
    /// array cannot take without the bytes made elsewhere first (a `String` for each event
    /// line, whose allocation, copy and release are measured to matter; see Benchmarks/LOG.md).
    private var room: UnsafeMutableBufferPointer<UInt8>
    private var count = 0
    private let capacity: Int
    /// Set once a write failed (e.g. the reader of a pipe went away); later writes are dropped.
    package private(set) var failure: OutputError?

    public init(descriptor: Int32 = 1, capacity: Int = 1 << 16) {
        self.descriptor = descriptor
        self.capacity = capacity
        room = .allocate(capacity: max(capacity, 0) + 1024)
    }

    public func write(_ text: String) {
        var text = text
        text.withUTF8 { append($0) }
        if count >= capacity { try? flush() }
    }

    public func writeLine(_ text: String) {
        var text = text
        text.withUTF8 { append($0) }
        append(byte: 0x0A)
        if count >= capacity { try? flush() }
    }

    package func write(bytes: some Sequence<UInt8>) {
        if bytes.withContiguousStorageIfAvailable({ append($0) }) == nil {
            for byte in bytes { append(byte: byte) }
        }
        if count >= capacity { try? flush() }
    }

    /// Appends a line that `body` writes in place, then a newline: `body` is handed room
    /// for `maximumBytes` and returns how many of them it wrote.
    ///
    ///     out.writeLine(maximumBytes: 2) { start in start[0] = 0x6F; start[1] = 0x6B; return 2 }   // "ok\n"
    package func writeLine(maximumBytes: Int, _ body: (UnsafeMutablePointer<UInt8>) -> Int) {
        reserve(maximumBytes + 1)
        let written = body(room.baseAddress.unsafelyUnwrapped + count)
        precondition(written >= 0 && written <= maximumBytes, "a line wrote past the room it asked for")
        count += written
        append(byte: 0x0A)
        if count >= capacity { try? flush() }
    }

    package var pendingByteCount: Int { count }

    /// Writes out everything buffered. Throws the first write error (and remembers it).
    public func flush() throws(OutputError) {
        if let failure { count = 0; throw failure }
        var offset = 0
        let total = count
        let base = room.baseAddress.unsafelyUnwrapped
        while offset < total {
            #if canImport(Glibc)
            let written = Glibc.write(descriptor, base + offset, total - offset)
            #else
            let written = Darwin.write(descriptor, base + offset, total - offset)
            #endif
            if written < 0 {
                if errno == EINTR { continue }
                let error = OutputError(code: errno)
                failure = error
                count = 0
                throw error
            }
            offset += written
        }
        count = 0
    }

    /// Room for `more` bytes after the `count` held (the block doubles, as an array's would).
    @inline(__always)
    private func reserve(_ more: Int) {
        guard count + more > room.count else { return }
        let larger = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(room.count * 2, count + more))
        larger.baseAddress.unsafelyUnwrapped.initialize(from: room.baseAddress.unsafelyUnwrapped, count: count)
        room.deallocate()
        room = larger
    }

    private func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, bytes.count > 0 else { return }
        reserve(bytes.count)
        (room.baseAddress.unsafelyUnwrapped + count).initialize(from: source, count: bytes.count)
        count += bytes.count
    }

    @inline(__always)
    private func append(byte: UInt8) {
        reserve(1)
        room[count] = byte
        count += 1
    }

    deinit {
        try? flush()
        room.deallocate()
    }
}

/// A failed write to an output descriptor.
public struct OutputError: LandmarkNearError, Sendable {
    package var code: Int32
    public var kind: ErrorKind { .io }
    public var description: String { "write failed: " + String(cString: strerror(code)) }
}
