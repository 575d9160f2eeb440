import Glibc

/// Where a `LineStream` gets its bytes: a file descriptor, or a decompressor over another
/// stream. `read` blocks until some bytes arrive and returns what there is (a live pipe's
/// line as soon as it is written), 0 at the end of input.
package protocol ByteSource: AnyObject {
    func read(into buffer: UnsafeMutablePointer<UInt8>, capacity: Int) throws(InputError) -> Int
    /// Whether `read` would return at once (bytes ready, or the end), without waiting.
    var hasReadableInput: Bool { get }
    /// Whether bytes already read from the descriptor wait inside the source (so `read` needs
    /// no new input to return some).
    var hasBufferedInput: Bool { get }
    /// The descriptor under the source: what a live reader polls.
    var descriptor: Int32 { get }
    /// The file path as given, or `<stdin>`.
    var sourceName: String { get }
}

/// A file descriptor read with read(2); the one owner of the descriptor when `ownsDescriptor`.
package final class DescriptorSource: ByteSource {
    package let descriptor: Int32
    private let ownsDescriptor: Bool
    package let sourceName: String
    package var hasBufferedInput: Bool { false }

    package init(descriptor: Int32, ownsDescriptor: Bool, sourceName: String) {
        self.descriptor = descriptor
        self.ownsDescriptor = ownsDescriptor
        self.sourceName = sourceName
    }

    deinit {
        if ownsDescriptor { close(descriptor) }
    }

    package func read(into buffer: UnsafeMutablePointer<UInt8>, capacity: Int) throws(InputError) -> Int {
        while true {
            let count = Glibc.read(descriptor, buffer, capacity)
            if count >= 0 { return count }
            if errno == EINTR { continue }
            throw InputError.system("read", source: sourceName, errno: errno)
        }
    }

    package var hasReadableInput: Bool {
        var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&request, 1, 0) > 0 && request.revents & Int16(POLLIN | POLLHUP) != 0
    }
}
