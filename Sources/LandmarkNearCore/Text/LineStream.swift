import Glibc

/// Reads a byte source (a file descriptor, or a gzip stream over one) in large chunks and hands
/// out its lines, without copying them: a line is a view into the buffer, valid until the next
/// call.
///
/// `read(2)` returns whatever a pipe has, so on a live stream a line is handed out as soon as
/// it arrives. A line longer than `maximumLineLength` is reported once as `.overlong` and
/// skipped up to its newline, so memory stays bounded whatever the input. A trailing `\r`
/// (CRLF files) is removed, and a UTF-8 byte-order mark at the very start is skipped.
package final class LineStream {
    package enum Line {
        /// The bytes of line `number` (1-based), without its `\n` or `\r\n`.
        case text(UnsafeBufferPointer<UInt8>, number: Int)
        /// Line `number` was longer than the maximum; it is skipped.
        case overlong(number: Int)
    }

    package static let defaultMaximumLineLength = 1 << 20
    static let readSize = 1 << 16

    package let maximumLineLength: Int
    private let source: any ByteSource
    @exclusivity(unchecked) private var storage: UnsafeMutablePointer<UInt8>
    @exclusivity(unchecked) private var capacity: Int
    /// Bytes `start ..< end` of `storage` are read and not yet handed out.
    @exclusivity(unchecked) private var start = 0
    @exclusivity(unchecked) private var end = 0
    /// Bytes `start ..< start + scanned` are known to hold no newline.
    @exclusivity(unchecked) private var scanned = 0
    @exclusivity(unchecked) private var discardingOverlongLine = false
    @exclusivity(unchecked) private var checkedByteOrderMark = false
    // `@exclusivity(unchecked)`: one thread reads a stream, and other modules only read these;
    // without it every line pays a dynamic exclusivity check (measured; see Benchmarks/LOG.md).
    @exclusivity(unchecked) package private(set) var reachedEnd = false
    @exclusivity(unchecked) package private(set) var lineNumber = 0
    /// Bytes read from the source so far (an input of a byte-order mark alone is not empty).
    @exclusivity(unchecked) package private(set) var bytesRead = 0
    /// Whether the input is a pipe, terminal or socket rather than a regular file.
    package let isLive: Bool
    /// Called before each read (see `InputPauseHandler`).
    @exclusivity(unchecked) package weak var pauseHandler: (any InputPauseHandler)?

    package init(source: any ByteSource, maximumLineLength: Int = LineStream.defaultMaximumLineLength) {
        self.source = source
        self.maximumLineLength = maximumLineLength
        capacity = 4 * LineStream.readSize
        storage = .allocate(capacity: capacity)
        var status = stat()
        isLive = fstat(source.descriptor, &status) != 0 || (status.st_mode & S_IFMT) != S_IFREG
    }

    deinit {
        storage.deallocate()
    }

    /// Lines of a file descriptor, closed at the end when `ownsDescriptor`.
    package convenience init(
        descriptor: Int32, ownsDescriptor: Bool, sourceName: String,
        maximumLineLength: Int = LineStream.defaultMaximumLineLength
    ) {
        self.init(
            source: DescriptorSource(descriptor: descriptor, ownsDescriptor: ownsDescriptor, sourceName: sourceName),
            maximumLineLength: maximumLineLength)
    }

    /// The descriptor under the source, and the source's name (for a stream layered on this one).
    package var descriptor: Int32 { source.descriptor }
    package var sourceName: String { source.sourceName }

    /// The bytes read and not handed out yet (for format detection, which looks ahead).
    package var buffered: UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: storage + start, count: end - start)
    }

    /// Whether more input is at hand without waiting: a whole line in the buffer, or bytes
    /// ready to be read (lets a reader batch its writes while input pours in).
    package var hasPendingInput: Bool {
        if memchr(storage + start, 0x0A, end - start) != nil { return true }
        if reachedEnd { return false }
        return source.hasReadableInput
    }

    /// Reads once more (blocking until some bytes arrive). Returns false at the end of input.
    @discardableResult
    package func readMore() throws(InputError) -> Bool {
        if reachedEnd { return false }
        if let pauseHandler { try waitForInput(pauseHandler) }
        makeRoom()
        let count = try source.read(into: storage + end, capacity: capacity - end)
        if count == 0 {
            reachedEnd = true
            return false
        }
        end += count
        bytesRead += count
        return true
    }

    /// Reads until at least `count` bytes are buffered or the input ends (for sniffing magic
    /// numbers such as gzip's).
    package func fill(atLeast count: Int) throws(InputError) {
        while end - start < count, try readMore() {}
    }

    /// Polls the input with the handler's wake descriptor: tells the handler when the input
    /// pauses, and throws `interrupted` when it says to stop.
    private func waitForInput(_ handler: any InputPauseHandler) throws(FixInputError) {
        // A gzip stream may hold bytes read from its descriptor but not inflated yet.
        if source.hasBufferedInput { return }
        let sourceName = source.sourceName
        var descriptors = [
            pollfd(fd: source.descriptor, events: Int16(POLLIN), revents: 0),
            pollfd(fd: handler.wakeDescriptor, events: Int16(POLLIN), revents: 0),
        ]
        var paused = false
        while true {
            let ready = poll(&descriptors, 2, paused ? -1 : 0)
            if ready < 0 {
                if errno == EINTR { continue }
                return
            }
            if descriptors[1].revents != 0 {
                guard handler.wakeDescriptorIsReadable() else { throw .interrupted(source: sourceName) }
                continue
            }
            if descriptors[0].revents != 0 { return }
            if !paused {
                paused = true
                guard handler.inputWillPause() else { throw .interrupted(source: sourceName) }
            }
        }
    }

    /// Hands out all buffered bytes, then reads more; nil at the end of input. For GPX, which
    /// libxml2 reads in chunks rather than lines, and for gzip's compressed bytes.
    package func nextChunk() throws(InputError) -> UnsafeBufferPointer<UInt8>? {
        if start == end {
            start = 0
            end = 0
            guard try readMore() else { return nil }
        }
        let chunk = buffered
        start = end
        scanned = 0
        return chunk
    }

    /// Skips bytes `count` bytes of the buffer (after they were looked at), counting newlines.
    package func discard(_ count: Int) {
        let stop = min(end, start + count)
        var index = start
        while index < stop {
            if storage[index] == 0x0A { lineNumber += 1 }
            index += 1
        }
        start = stop
        scanned = 0
    }

    /// The next line, or nil at the end of input.
    package func nextLine() throws(InputError) -> Line? {
        while true {
            if !checkedByteOrderMark {
                // Wait for three bytes only while what came may be the start of a mark.
                if !reachedEnd && ByteOrderMark.mayBegin(buffered) {
                    try readMore()
                    continue
                }
                checkedByteOrderMark = true
                start += ByteOrderMark.length(of: buffered)
            }
            let searchFrom = start + scanned
            if searchFrom < end, let found = memchr(storage + searchFrom, 0x0A, end - searchFrom) {
                let newline = UnsafeMutablePointer<UInt8>(found.assumingMemoryBound(to: UInt8.self)) - storage
                let lineStart = start
                start = newline + 1
                scanned = 0
                lineNumber += 1
                if discardingOverlongLine {
                    discardingOverlongLine = false
                    continue
                }
                let line = trimmed(lineStart, newline)
                if line.count > maximumLineLength { return .overlong(number: lineNumber) }
                return .text(line, number: lineNumber)
            }
            scanned = end - start
            if discardingOverlongLine {
                start = end
                scanned = 0
            } else if end - start > maximumLineLength + 1 {
                // Report the line now and drop its bytes as they come, up to its newline.
                discardingOverlongLine = true
                start = end
                scanned = 0
                return .overlong(number: lineNumber + 1)
            }
            if reachedEnd {
                guard start < end else { return nil }
                let lineStart = start
                start = end
                scanned = 0
                lineNumber += 1
                if discardingOverlongLine { return nil }
                let line = trimmed(lineStart, end)
                if line.count > maximumLineLength { return .overlong(number: lineNumber) }
                return .text(line, number: lineNumber)
            }
            try readMore()
        }
    }

    private func trimmed(_ from: Int, _ to: Int) -> UnsafeBufferPointer<UInt8> {
        var stop = to
        if stop > from, storage[stop - 1] == 0x0D { stop -= 1 }
        return UnsafeBufferPointer(start: storage + from, count: stop - from)
    }

    /// Ensures at least `readSize` free bytes after `end`, moving pending bytes to the front
    /// and growing the buffer only while one line needs it (up to the line limit).
    private func makeRoom() {
        if capacity - end >= LineStream.readSize { return }
        if start > 0 {
            let pending = end - start
            if pending > 0 { memmove(storage, storage + start, pending) }
            start = 0
            end = pending
        }
        if capacity - end >= LineStream.readSize { return }
        let newCapacity = capacity * 2
        let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        grown.update(from: storage, count: end)
        storage.deallocate()
        storage = grown
        capacity = newCapacity
    }
}
