#if canImport(Glibc)
import Glibc
#endif

/// Memory of this process, two ways:
/// - `heapBytes`: bytes handed out by glibc malloc and not yet freed, from `mallinfo2()`
///   (`uordblks`, the arenas' in-use bytes, + `hblkhd`, the mmap'd blocks) — exact for what an
///   index allocates, whatever RSS does. Swift's Glibc module does not export `<malloc.h>`, so
///   the function is looked up with `dlsym` and called through the x86-64 System V convention
///   for a returned struct of more than 16 bytes (the caller's buffer address passed as the
///   first argument); nil on other architectures or an older glibc.
/// - `residentBytes`: resident set size from `/proc/self/statm` (second field, in pages).
enum MemoryProbe {
    static func heapBytes() -> Int? {
        #if arch(x86_64)
        typealias StructReturning = @convention(c) (UnsafeMutableRawPointer) -> UnsafeMutableRawPointer?
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallinfo2") else { return nil }
        let function = unsafeBitCast(symbol, to: StructReturning.self)
        // struct mallinfo2 { size_t arena, ordblks, smblks, hblks, hblkhd, usmblks, fsmblks, uordblks, fordblks, keepcost; }
        var fields = [Int](repeating: 0, count: 10)
        fields.withUnsafeMutableBytes { _ = function($0.baseAddress!) }
        return fields[7] + fields[4]
        #else
        return nil
        #endif
    }

    static func residentBytes() -> Int {
        guard let file = fopen("/proc/self/statm", "r") else { return 0 }
        defer { fclose(file) }
        var line = [CChar](repeating: 0, count: 256)
        guard fgets(&line, Int32(line.count), file) != nil else { return 0 }
        let text = String(decoding: line.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let fields = text.split(separator: " ")
        guard fields.count >= 2, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}
