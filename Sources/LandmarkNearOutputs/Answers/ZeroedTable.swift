#if canImport(Glibc)
import Glibc
#endif

/// A table of integers that starts all zero and takes memory only for the pages written: an
/// anonymous mapping of its own (the kernel's shared zero page until a write), unmapped in
/// `deinit`.
///
/// Why: `NearestAnswerWriter` keeps offsets for every landmark of the catalog, made on the
/// landmark's first answer. Arrays filled with -1 and 0 would write them all before the first
/// answer (megabytes and their page faults, on the stream's path even for an empty input; see
/// Benchmarks/LOG.md), most of it never read again. Not `calloc`: once a large block is freed,
/// glibc serves blocks of up to 32 MB from its heap, and clears them.
///
///     let table = ZeroedTable(count: 1_000_000)
///     table[7] = 42      // one page taken
///     table[8]           // 0
final class ZeroedTable {
    private let entries: UnsafeMutablePointer<Int>
    private let bytes: Int
    let count: Int

    init(count: Int) {
        precondition(count >= 0)
        self.count = count
        bytes = max(1, count) * MemoryLayout<Int>.stride
        let address = mmap(nil, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
        let failure = errno
        guard let address, address != MAP_FAILED else {
            fatalError("out of memory: cannot map \(bytes) bytes (\(String(cString: strerror(failure))))")
        }
        entries = address.bindMemory(to: Int.self, capacity: max(1, count))
    }

    deinit { munmap(entries, bytes) }

    /// The bytes of the table in memory now: its pages the system holds (`mincore`).
    var residentBytes: Int {
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        var resident = [UInt8](repeating: 0, count: (bytes + page - 1) / page)
        guard mincore(entries, bytes, &resident) == 0 else { return bytes }
        return resident.reduce(0) { $0 + Int($1 & 1) } * page
    }

    subscript(position: Int) -> Int {
        @inline(__always) get {
            precondition(position >= 0 && position < count, "ZeroedTable index out of range")
            return entries[position]
        }
        @inline(__always) set {
            precondition(position >= 0 && position < count, "ZeroedTable index out of range")
            entries[position] = newValue
        }
    }
}
