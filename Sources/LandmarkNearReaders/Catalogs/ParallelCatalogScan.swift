import Dispatch
import Glibc
@_spi(Inlining) import LandmarkNearCore
import Synchronization

/// Scans a large catalog on two threads: the bytes are split near the middle, at a seam
/// where an entry seems to start, the second half is scanned on a worker thread while the
/// calling thread scans the first, and the second half's columns are appended to the first's.
///
/// Why: the byte scan is about half of loading a catalog as a process (measured; see
/// Benchmarks/LOG.md), and the machines it runs on have two cores or more.
///
/// The answer is always the one-thread scan's, by construction:
/// - JSON (tutorial array, GeoJSON `features`): the seam is only a guess (`},{` may be inside
///   a string, or deeper than the entries). The first half's scanner reads from the start
///   and stops only where an entry starts exactly at the seam, which makes the seam a real
///   boundary; if it passes the seam inside an entry it reads on alone to the end (the
///   second half's work is dropped). Nothing an entry's scan does depends on what came
///   before but its position, and that is put right in the merge: an id given by position
///   (`index + 1`) moves up by the first half's count.
/// - CSV: every newline ends a row (`CSVCatalogFormat` splits rows at each one), so any line
///   start is a seam. Each half checks its own UTF-8 and rows; if either finds a problem, the
///   loader reads the whole file again on one thread, so that each message is exactly the
///   one-thread message.
/// Whatever gave up stays one thread's to decide: a JSON half that gives up means the whole
/// scan would have given up there too (the full parser then decides, with its messages).
/// The checks over the whole catalog (duplicate ids, names, coordinates) run on the merged
/// columns, as before.
///
///     let scan = ParallelCatalogScan.json(.tutorial, in: body, file: nil, shared: .array(bytes), offset: 0)
///     scan.columns    // TutorialCatalogScanner.columns(in: body)'s landmarks
enum ParallelCatalogScan {
    typealias Bytes = UnsafeBufferPointer<UInt8>

    /// Below this size a catalog is scanned on one thread. The split saves half the scan, which
    /// on smaller files is lost in the noise of a load: they loaded no faster split (measured;
    /// see Benchmarks/LOG.md).
    static let minimumBytes = 4 << 20

    /// The size from which the loader splits: `minimumBytes`, or never when this process may
    /// run on one core only (its CPU affinity: `taskset -c 0`, a one-CPU container), where two
    /// threads take turns and only add the merge (measured; see Benchmarks/LOG.md).
    static var loaderThreshold: Int { availableCores >= 2 ? minimumBytes : .max }

    /// The CPUs this process may run on: the bits of `Cpus_allowed` in `/proc/self/status`
    /// (`sched_getaffinity` is a GNU extension that Swift's Glibc module does not export).
    /// 2 where it cannot tell.
    static var availableCores: Int {
        guard let file = fopen("/proc/self/status", "r") else { return 2 }
        defer { fclose(file) }
        var line: UnsafeMutablePointer<CChar>?
        var capacity = 0
        defer { free(line) }
        let prefix = "Cpus_allowed:"
        while getline(&line, &capacity, file) > 0, let line {
            let text = String(cString: line)
            guard text.hasPrefix(prefix) else { continue }
            let count = text.dropFirst(prefix.count).reduce(0) { count, digit in count + (digit.hexDigitValue ?? 0).nonzeroBitCount }
            return count > 0 ? count : 2
        }
        return 2
    }

    /// How a scan went (the tests check that a file took the way they meant it to).
    enum Path: Equatable, Sendable {
        /// One thread: the file is small, or has no seam.
        case oneThread
        /// Two halves, merged.
        case split
        /// The first half did not stop at the seam (it passed it inside an entry, or gave
        /// up before it) and read on alone.
        case readOnAlone
        /// JSON: the second half gave up, so one scan would have too (nil: the full parser
        /// decides). CSV: a half found a problem (nil: the loader reads on one thread).
        case refused
    }

    struct Scan {
        var columns: CatalogColumns?
        var path: Path
    }

    enum JSONShape: Sendable {
        case tutorial, geoJSON
    }

    /// The columns `TutorialCatalogScanner.columns(in:file:)` or `GeoJSONCatalogScanner`'s
    /// would give for `body`, which is `shared`'s bytes from `offset`. `seam` (tests) is
    /// where the second half starts, instead of the one found.
    package static func json(
        _ shape: JSONShape, in body: Bytes, file: MappedFile?, shared: SharedCatalogBytes?, offset: Int,
        minimumBytes: Int = minimumBytes, seam: Int? = nil
    ) -> Scan {
        switch shape {
        case .tutorial:
            return split(
                body, file: file, shared: shared, offset: offset, minimumBytes: minimumBytes, seam: seam,
                head: TutorialCatalogScanner.head, tail: TutorialCatalogScanner.tail, accept: { _, _ in true })
        case .geoJSON:
            // The root's last `type` counts, wherever it is.
            return split(
                body, file: file, shared: shared, offset: offset, minimumBytes: minimumBytes, seam: seam,
                head: GeoJSONCatalogScanner.head, tail: GeoJSONCatalogScanner.tail,
                accept: { first, second in (second ?? first) == true })
        }
    }

    private static func split<State: Sendable>(
        _ body: Bytes, file: MappedFile?, shared: SharedCatalogBytes?, offset: Int, minimumBytes: Int, seam given: Int?,
        head: (Bytes, MappedFile?, Int?) -> CatalogScanHead<State>,
        tail: @escaping @Sendable (Bytes, Int, MappedFile?) -> CatalogScanTail<State>?,
        accept: (State, State) -> Bool
    ) -> Scan {
        guard let shared, body.count >= minimumBytes, let seam = given ?? jsonSeam(in: body), seam > 0, seam < body.count
        else {
            guard case .whole(let columns) = head(body, file, nil) else { return Scan(columns: nil, path: .oneThread) }
            return Scan(columns: columns, path: .oneThread)
        }
        let count = body.count
        let second = OtherThread {
            shared.withBytes(from: offset, count: count) { bytes, file in tail(bytes, seam, file) } ?? nil
        }
        let first = head(body, file, seam)
        // Waited for in every case: the second half's mapping needs the descriptor open.
        let rest = second.value()
        switch first {
        case .whole(let columns):
            return Scan(columns: columns, path: .readOnAlone)
        case .atSeam(var columns, let state):
            guard var rest, accept(state, rest.state) else { return Scan(columns: nil, path: .refused) }
            // Moved out, so that the merge can let go of each column as it copies it.
            let tailColumns = rest.columns
            rest.columns = CatalogColumns()
            columns.append(consume tailColumns, renumbering: rest.defaultIDs)
            return Scan(columns: columns, path: .split)
        }
    }

    /// A guess at where an entry starts near the middle: the `{` of the first `}`, blanks,
    /// `,`, blanks, `{` from there (the first half's scan checks it).
    static func jsonSeam(in body: Bytes) -> Int? {
        guard let base = body.baseAddress else { return nil }
        var k = body.count / 2
        func blanks(from start: Int) -> Int {
            var j = start
            while j < body.count, body[j] == 0x20 || body[j] == 0x0A || body[j] == 0x0D || body[j] == 0x09 { j += 1 }
            return j
        }
        while k < body.count, let found = memchr(base + k, Int32(UInt8(ascii: "}")), body.count - k) {
            let close = UnsafePointer<UInt8>(found.assumingMemoryBound(to: UInt8.self)) - base
            k = close + 1
            var j = blanks(from: close + 1)
            guard j < body.count, body[j] == UInt8(ascii: ",") else { continue }
            j = blanks(from: j + 1)
            if j < body.count, body[j] == UInt8(ascii: "{") { return j }
        }
        return nil
    }

    /// The rows `CSVCatalogFormat.landmarks` gives for `body` (`shared`'s bytes from
    /// `offset`), read in two halves; nil where the loader reads on one thread: a small file,
    /// invalid UTF-8, a bad header, any row's problem. `seam` (tests) must be a line start.
    static func csv(
        in body: Bytes, source: String, shared: SharedCatalogBytes?, offset: Int, minimumBytes: Int = minimumBytes,
        seam given: Int? = nil
    ) -> (rows: CSVCatalogFormat.Rows?, path: Path) {
        guard let shared, body.count >= minimumBytes, let base = body.baseAddress,
            let (header, headerEnd, headerLines) = try? CSVCatalogFormat.header(in: body, source: source)
        else { return (nil, .oneThread) }
        let seam: Int
        if let given {
            seam = given
        } else {
            let middle = max(headerEnd, body.count / 2)
            guard middle < body.count, let found = memchr(base + middle, 0x0A, body.count - middle) else {
                return (nil, .oneThread)
            }
            seam = UnsafePointer<UInt8>(found.assumingMemoryBound(to: UInt8.self)) - base + 1
        }
        guard seam >= headerEnd, seam < body.count, body[seam - 1] == 0x0A else { return (nil, .oneThread) }
        let count = body.count
        let second = OtherThread { () -> CSVCatalogFormat.Rows? in
            let rows = shared.withBytes(from: offset, count: count) { bytes, _ -> CSVCatalogFormat.Rows? in
                let half = Bytes(rebasing: bytes[seam...])
                guard isUTF8(half) else { return nil }
                var problems = CatalogProblems(source: source)
                let rows = CSVCatalogFormat.rows(in: half, from: 0, line: 0, header: header, source: source, problems: &problems)
                return problems.isEmpty ? rows : nil
            }
            return rows ?? nil
        }
        let half = Bytes(rebasing: body[..<seam])
        var first: CSVCatalogFormat.Rows?
        if isUTF8(half) {
            var problems = CatalogProblems(source: source)
            let rows = CSVCatalogFormat.rows(
                in: half, from: headerEnd, line: headerLines, header: header, source: source, problems: &problems,
                reserving: body.count)
            if problems.isEmpty { first = rows }
        }
        guard var rest = second.value(), var rows = first else { return (nil, .refused) }
        // Without an id column, a row's id is its position.
        let columns = rest.columns
        rest.columns = CatalogColumns()
        rows.columns.append(consume columns, renumbering: 0..<(header.id == nil ? rest.count : 0))
        let linesBefore = rows.lineCount
        rows.lines.append(contentsOf: rest.lines.lazy.map { $0 + linesBefore })
        // No row was refused: each is the entry of its position.
        rows.entries = nil
        rows.count += rest.count
        rows.lineCount += rest.lineCount
        return (rows, .split)
    }

    private static func isUTF8(_ bytes: Bytes) -> Bool {
        CatalogLoader.isASCII(bytes) || String(validating: bytes, as: UTF8.self) != nil
    }
}

/// How the first half of a split JSON scan ended.
enum CatalogScanHead<State> {
    /// It read the whole document (no seam, or it did not stop at it): the one-thread
    /// answer, nil where that leaves the document to the full parser.
    case whole(CatalogColumns?)
    /// An entry starts exactly at the seam: the columns before it, and what the format
    /// carries over to the merge (GeoJSON: the root's `type` so far).
    case atSeam(CatalogColumns, State)
}

/// The second half of a split JSON scan: its landmarks numbered from 0, the positions whose
/// ids were given by position, and what the format carries over.
struct CatalogScanTail<State: Sendable>: Sendable {
    var columns: CatalogColumns
    var defaultIDs: [Int]
    var state: State
}

/// Where a scanner's loop over the entries ended.
enum CatalogEntriesEnd {
    case closed, atSeam, refused
}
