import Glibc
@_spi(Inlining) import LandmarkNearCore

/// Reads location fixes from a file or standard input, in any format of docs/reference/fixes.md, streaming:
/// records come one at a time, as soon as their line arrives on a live pipe, in bounded memory.
/// A gzip input (first bytes `1f 8b`) is inflated as it streams and the format inside it is
/// detected as usual.
///
///     let reader = try FixReader(input: FixInput(argument: "-"), format: nil)
///     while let record = try reader.next() {
///         switch record {
///         case .fix(let fix, let line): print(line, fix.coordinate)
///         case .invalid(let issue): print(issue)          // "<stdin>:3: latitude 91.0 is outside [-90, 90]"
///         }
///     }
///
/// Errors thrown are about the input as a whole (an input that cannot be opened, a failed
/// read); a record that cannot be read is returned as `.invalid` and reading goes on after it.
public final class FixReader {
    /// The format read: the one forced, or the one detected (for XML, named by its root element).
    // `@exclusivity(unchecked)`: one thread reads a reader; every record reads these.
    @exclusivity(unchecked) public private(set) var format: FixFormat
    /// The file path as given, or `<stdin>`: the source named in issues.
    public let sourceName: String
    /// Whether the input is gzip-compressed (known once reading has begun).
    package var isCompressed: Bool { opened?.gzip != nil }
    private let raw: LineStream
    private let maximumLineLength: Int
    private let forced: FixFormat?
    @exclusivity(unchecked) private var opened: Opened?
    /// `opened.source`, kept apart so that `next()` does not copy (and retain) the whole
    /// `Opened` for every record (measured; see Benchmarks/LOG.md).
    @exclusivity(unchecked) private var openedSource: (any FixRecordSource)?
    private var reportedGzipProblem = false
    /// The NMEA date to start from, until the NMEA decoder exists (see `nmeaLatestRMCTime`).
    private var initialNMEARMCTime: Timestamp?

    /// The record source chosen for the input, and the streams under it.
    private struct Opened {
        var source: any FixRecordSource
        package var lines: LineStream
        var gzip: GzipSource?
    }

    /// Whether the input is a pipe, terminal or socket (a live stream) rather than a regular file.
    public var isLive: Bool { raw.isLive }

    /// Called before each read of more input, from then on (see `InputPauseHandler`); held weakly.
    package var pauseHandler: (any InputPauseHandler)? {
        get { raw.pauseHandler }
        set {
            raw.pauseHandler = newValue
            if let lines = opened?.lines, lines !== raw { lines.pauseHandler = newValue }
        }
    }

    /// Opens `input` and, when `format` is nil, detects its format from the first line that
    /// settles it (see `FormatDetector`): a live stream is read from that line on.
    public convenience init(input: FixInput, format: FixFormat?, pauseHandler: (any InputPauseHandler)? = nil) throws(InputError) {
        switch input {
        case .standardInput:
            try self.init(
                descriptor: STDIN_FILENO, ownsDescriptor: false, sourceName: input.sourceName, format: format,
                pauseHandler: pauseHandler)
        case .file(let path):
            let descriptor = try InputFile.open(path)
            try self.init(
                descriptor: descriptor, ownsDescriptor: true, sourceName: path, format: format,
                pauseHandler: pauseHandler)
        }
    }

    /// Reads from an open file descriptor (a pipe, a socket, a file), closing it at the end
    /// when `ownsDescriptor`. With a forced `format` nothing is read before the first `next()`
    /// (a live pipe may not have written yet); otherwise the input is read up to the line that
    /// settles its format.
    package init(
        descriptor: Int32, ownsDescriptor: Bool, sourceName: String, format: FixFormat?,
        maximumLineLength: Int = 1 << 20, pauseHandler: (any InputPauseHandler)? = nil
    ) throws(InputError) {
        raw = LineStream(
            source: DescriptorSource(descriptor: descriptor, ownsDescriptor: ownsDescriptor, sourceName: sourceName),
            maximumLineLength: maximumLineLength)
        // Set before detection, so that a signal during detection is seen too.
        raw.pauseHandler = pauseHandler
        self.sourceName = sourceName
        self.maximumLineLength = maximumLineLength
        forced = format
        self.format = format ?? .ndjson
        if format == nil { _ = try open() }
    }

    /// Sniffs gzip, detects the format (unless forced) and creates the record source.
    private func open() throws(InputError) -> Opened {
        if let opened { return opened }
        try raw.fill(atLeast: 2)
        var lines = raw
        var gzip: GzipSource?
        if FixReader.isGzip(raw.buffered) {
            let inflating = GzipSource(compressed: raw)
            gzip = inflating
            lines = LineStream(source: inflating, maximumLineLength: maximumLineLength)
            lines.pauseHandler = raw.pauseHandler
            try lines.fill(atLeast: 2)
        }
        let source: any FixRecordSource
        if gzip != nil, FixReader.isGzip(lines.buffered) {
            // One layer only: gzip inside gzip is how small files inflate to terabytes.
            source = IssueRecordSource(
                FixReadIssue(
                    source: sourceName, line: 1,
                    reason: "gzip: the decompressed data is gzip again; nested compression is not read (a decompression bomb?)"))
        } else if gzip == nil, let what = FixReader.notText(lines.buffered) {
            // (Inflated data is left to the readers: a gzip of zeros is the bomb the inflater
            // stops and names.)
            source = IssueRecordSource(FixReadIssue(source: sourceName, line: 1, reason: what))
        } else {
            source = try makeSource(lines)
        }
        let result = Opened(source: source, lines: lines, gzip: gzip)
        opened = result
        openedSource = source
        return result
    }

    private func makeSource(_ lines: LineStream) throws(InputError) -> any FixRecordSource {
        let decision: FormatDetector.Decision
        if let forced {
            switch forced {
            case .ndjson: decision = .ndjson
            case .csv: decision = .csv
            case .nmea: decision = .nmea
            case .geojson: decision = .geojson
            case .gpx, .kml, .tcx: decision = .xml
            }
        } else {
            decision = try FixReader.detect(lines)
        }
        switch decision {
        case .ndjson:
            format = .ndjson
            return LineRecordSource(lines: lines, sourceName: sourceName, decoder: NDJSONLineDecoder())
        case .csv:
            format = .csv
            return LineRecordSource(lines: lines, sourceName: sourceName, decoder: CSVLineDecoder())
        case .nmea:
            format = .nmea
            let decoder = NMEALineDecoder()
            decoder.latestRMCTime = initialNMEARMCTime
            return LineRecordSource(lines: lines, sourceName: sourceName, decoder: decoder)
        case .geojson:
            format = .geojson
            return GeoJSONRecordSource(stream: lines, sourceName: sourceName)
        case .xml:
            let xml = XMLRecordSource(stream: lines, sourceName: sourceName, expected: forced)
            if forced == nil {
                try xml.readRootElement()
                format = xml.format ?? .gpx
            }
            return xml
        }
    }

    /// The next record, or nil at the end of the input.
    public func next() throws(InputError) -> FixRecord? {
        let source: any FixRecordSource
        if let openedSource { source = openedSource } else { source = try open().source }
        if let record = try source.next() { return record }
        return try afterTheLastRecord()
    }

    /// Appends the next records to `records`, up to `limit` in all: `next()` over and over, with
    /// the source looked up once (for `FixReadAhead`'s batches). False once the input has ended.
    func next(into records: inout [FixRecord], limit: Int) throws(InputError) -> Bool {
        let source: any FixRecordSource
        if let openedSource { source = openedSource } else { source = try open().source }
        while records.count < limit {
            guard let record = try source.next() else {
                if let last = try afterTheLastRecord() { records.append(last) }
                return false
            }
            records.append(record)
        }
        return true
    }

    /// What follows the source's last record: a gzip stream's problem, once.
    private func afterTheLastRecord() throws(InputError) -> FixRecord? {
        let opened = try open()
        if let problem = opened.gzip?.problem, !reportedGzipProblem {
            reportedGzipProblem = true
            return .invalid(FixReadIssue(source: sourceName, line: opened.lines.lineNumber + 1, reason: problem))
        }
        return nil
    }

    /// NMEA: the date and time of the latest RMC read, which dates the GGA, GLL and GNS
    /// sentences after it (docs/reference/fixes.md). Set it before the first record to go on with a stream an
    /// earlier run was reading (`--state`); another format keeps it as set.
    package var nmeaLatestRMCTime: Timestamp? {
        get {
            // Another format passes the date it was given on to the next input.
            (opened?.source as? LineRecordSource<NMEALineDecoder>)?.decoder.latestRMCTime ?? initialNMEARMCTime
        }
        set {
            initialNMEARMCTime = newValue
            (opened?.source as? LineRecordSource<NMEALineDecoder>)?.decoder.latestRMCTime = newValue
        }
    }

    /// Records skipped because they are not fixes (RMC with status V, gpsd SKY reports, ...),
    /// by kind.
    package var skipped: SkipTally { opened?.source.skipped ?? SkipTally() }

    /// Why the input gave no fix, for an input that gave neither a fix nor an error: the one
    /// warning `watch` prints then (docs/reference/fixes.md). nil for an empty input.
    package func noFixExplanation() -> String? {
        guard let opened else { return nil }
        if let gzip = opened.gzip, gzip.inflatedBytes == 0, gzip.problem == nil { return NothingReadExplanation.emptyGzip }
        if let why = opened.source.noFixExplanation() { return why }
        // Bytes that made no line: a byte-order mark alone.
        return opened.lines.bytesRead > 0 ? NothingReadExplanation.byteOrderMark : nil
    }

    /// The first fix time without a zone read so far, and its line (`ZonelessTime`).
    package var zonelessTime: ZonelessTime? { openedSource?.zonelessTime }

    /// Bytes inflated from a gzip input so far (0 when it is not compressed).
    package var inflatedBytes: Int { opened?.gzip?.inflatedBytes ?? 0 }

    /// What an input that no text reader can read is, and what to do, from its first bytes:
    /// another compression (gzip is read), an archive, UTF-16 text, or binary data (a NUL byte
    /// in the first line, within the first 4 KiB, which no text format holds). nil for anything else. One issue then
    /// stands for the whole input, instead of a line of nonsense per "line" of a binary.
    static func notText(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        func starts(_ magic: [UInt8]) -> Bool { bytes.count >= magic.count && zip(bytes, magic).allSatisfy { $0 == $1 } }
        if starts([0x42, 0x5A, 0x68]) { return "bzip2-compressed: decompress it first (bzcat FILE | landmark-near ...)" }
        if starts([0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00]) { return "xz-compressed: decompress it first (xzcat FILE | landmark-near ...)" }
        if starts([0x28, 0xB5, 0x2F, 0xFD]) { return "zstd-compressed: decompress it first (zstdcat FILE | landmark-near ...)" }
        if starts([0x50, 0x4B, 0x03, 0x04]) { return "a zip archive (KMZ too): unpack it first (unzip -p FILE | landmark-near ...)" }
        if starts([0xFF, 0xFE]) || starts([0xFE, 0xFF]) {
            return "UTF-16 text: convert it to UTF-8 first (iconv -f UTF-16 -t UTF-8 FILE | landmark-near ...)"
        }
        // In the first line only: a text stream with a corrupt line later (noise on a serial
        // GPS) keeps its good lines, while a binary has a NUL long before any line break.
        let firstLine = bytes.prefix(4096).prefix { $0 != 0x0A }
        if let nul = firstLine.firstIndex(of: 0) {
            return
                "binary data (a NUL byte at byte \(nul + 1)), not a text format this reads (NDJSON, CSV, NMEA, GPX, KML, TCX, GeoJSON, gzip of them)"
        }
        return nil
    }

    private static func isGzip(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes.count >= 2 && bytes[0] == 0x1F && bytes[1] == 0x8B
    }

    /// Reads until the first line that settles the format (or the end of input). A line longer
    /// than the line limit decides on what came of it.
    private static func detect(_ lines: LineStream) throws(InputError) -> FormatDetector.Decision {
        while true {
            let buffered = lines.buffered
            let complete = lines.reachedEnd || buffered.count > lines.maximumLineLength
            if let decision = FormatDetector.detect(buffered, isComplete: complete) { return decision }
            try lines.readMore()
        }
    }
}

/// A source of one issue and nothing else (an input that cannot be read at all as fixes).
final class IssueRecordSource: FixRecordSource {
    private var issue: FixReadIssue?

    init(_ issue: FixReadIssue) { self.issue = issue }

    func next() throws(InputError) -> FixRecord? {
        defer { issue = nil }
        return issue.map { .invalid($0) }
    }

    var skipped: SkipTally { SkipTally() }
    func noFixExplanation() -> String? { nil }
    var zonelessTime: ZonelessTime? { nil }
}
