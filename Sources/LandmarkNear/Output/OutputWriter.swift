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
    private var buffer: [UInt8] = []
    private let capacity: Int
    /// Set once a write failed (e.g. the reader of a pipe went away); later writes are dropped.
    public private(set) var failure: OutputError?

    public init(descriptor: Int32 = 1, capacity: Int = 1 << 16) {
        self.descriptor = descriptor
        self.capacity = capacity
        buffer.reserveCapacity(capacity + 1024)
    }

    public func write(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= capacity { try? flush() }
    }

    public func writeLine(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        buffer.append(0x0A)
        if buffer.count >= capacity { try? flush() }
    }

    public func write(bytes: some Sequence<UInt8>) {
        buffer.append(contentsOf: bytes)
        if buffer.count >= capacity { try? flush() }
    }

    public var pendingByteCount: Int { buffer.count }

    /// Writes out everything buffered. Throws the first write error (and remembers it).
    public func flush() throws(OutputError) {
        if let failure { buffer.removeAll(keepingCapacity: true); throw failure }
        var offset = 0
        let total = buffer.count
        while offset < total {
            let written = buffer.withUnsafeBytes { raw in
                #if canImport(Glibc)
                Glibc.write(descriptor, raw.baseAddress! + offset, total - offset)
                #else
                Darwin.write(descriptor, raw.baseAddress! + offset, total - offset)
                #endif
            }
            if written < 0 {
                if errno == EINTR { continue }
                let error = OutputError(code: errno)
                failure = error
                buffer.removeAll(keepingCapacity: true)
                throw error
            }
            offset += written
        }
        buffer.removeAll(keepingCapacity: true)
    }

    deinit { try? flush() }
}

/// A failed write to an output descriptor.
public struct OutputError: LandmarkNearError, Sendable {
    public var code: Int32
    public var kind: ErrorKind { .io }
    public var description: String { "write failed: " + String(cString: strerror(code)) }
}
