import Glibc

/// A regular file mapped read-only, so a reader that goes through it once can let go of the
/// pages behind it (`release(before:)`): its bytes are never all held at once, as they are
/// when read into an array (a 28 MB catalog then costs 28 MB of peak memory).
///
///     if let file = MappedFile(descriptor: descriptor) {
///         file.bytes.count    // the file's size
///     }
package final class MappedFile {
    package let bytes: UnsafeBufferPointer<UInt8>
    private static let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))

    /// Maps the file open at `descriptor` (which the caller keeps and closes); nil when it is
    /// not a non-empty regular file (a pipe, a FIFO, `/dev/stdin`: the caller reads those from
    /// the same descriptor, as a FIFO's writer writes once) or cannot be mapped.
    package init?(descriptor: Int32) {
        var info = stat()
        guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_size > 0,
            let address = mmap(nil, Int(info.st_size), PROT_READ, MAP_PRIVATE, descriptor, 0), address != MAP_FAILED
        else { return nil }
        bytes = UnsafeBufferPointer(start: address.assumingMemoryBound(to: UInt8.self), count: Int(info.st_size))
    }

    /// Gives the whole pages from `start` to before `end` (positions in `bytes`) back to the
    /// system; reading them again maps them in again from the file. A page that `start` is
    /// inside is kept: when two threads scan the two halves of a file, each lets go of its own
    /// pages only.
    package func release(from start: UnsafePointer<UInt8>? = nil, before end: UnsafePointer<UInt8>) {
        guard let base = bytes.baseAddress else { return }
        let first = ((start ?? base) - base + Self.pageSize - 1) / Self.pageSize * Self.pageSize
        let last = (end - base) / Self.pageSize * Self.pageSize
        if last > first { _ = madvise(UnsafeMutableRawPointer(mutating: base + first), last - first, MADV_DONTNEED) }
    }

    deinit {
        if let base = bytes.baseAddress { _ = munmap(UnsafeMutableRawPointer(mutating: base), bytes.count) }
    }
}
