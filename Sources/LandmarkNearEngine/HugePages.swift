#if canImport(Glibc)
import Glibc
#endif

/// Asks the kernel to back a large table with 2 MB pages (transparent huge pages, where the
/// system leaves them to `madvise`, as Debian does), before the table is first written.
///
///     let table = [UInt64](unsafeUninitializedCapacity: 1 << 22) { buffer, count in
///         HugePages.advise(UnsafeMutableRawBufferPointer(buffer))
///         buffer.initialize(repeating: 0)
///         count = buffer.count
///     }
///
/// Why: the tables of a million devices (32 MB of name buckets, 72 MB of states) are written
/// as they grow and read at random. With 4 KB pages each first write faults (measured to matter;
/// see Benchmarks/LOG.md) and nearly every lookup also misses the TLB; a 2 MB page is one fault and
/// one TLB entry for 512 of them. Only the 2 MB-aligned part of the range is advised, only for
/// ranges of 4 MB or more; the advice is a hint (nothing changes where the kernel declines it), and
/// memory that is never written is still not taken.
enum HugePages {
    static let pageBytes = 2 << 20

    static func advise(_ range: UnsafeMutableRawBufferPointer) {
        guard range.count >= 2 * pageBytes, let base = range.baseAddress else { return }
        let start = (Int(bitPattern: base) + pageBytes - 1) & ~(pageBytes - 1)
        let end = (Int(bitPattern: base) + range.count) & ~(pageBytes - 1)
        guard end > start, let aligned = UnsafeMutableRawPointer(bitPattern: start) else { return }
        _ = madvise(aligned, end - start, MADV_HUGEPAGE)
    }
}
