import Glibc

/// Reads location fixes from a file or standard input, in any format of SPEC §3, streaming:
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
/// Errors thrown are about the input as a whole (missing file, I/O error); a record that cannot
/// be read is returned as `.invalid` and reading goes on after it.
public final class FixReader {
    /// The format read: the one forced, or the one detected (for XML, named by its root element).
    public private(set) var format: FixFormat
    /// The file path as given, or `<stdin>`: the source named in issues.
    public let sourceName: String
    /// Whether the input was gzip-compressed.
    public let isCompressed: Bool
    private let source: any FixRecordSource
    private let lines: LineStream
    private let gzip: GzipSource?
    private var reportedGzipProblem = false

    /// Opens `input` and, when `format` is nil, detects its format from the first line that
    /// settles it (see `FormatDetector`): a live stream is read from that line on.
    public convenience init(input: FixInput, format: FixFormat?) throws(FixInputError) {
        switch input {
        case .standardInput:
            try self.init(descriptor: STDIN_FILENO, ownsDescriptor: false, sourceName: input.sourceName, format: format)
        case .file(let path):
            let descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { throw FixInputError.system("open", source: path, errno: errno) }
            try self.init(descriptor: descriptor, ownsDescriptor: true, sourceName: path, format: format)
        }
    }

    /// Reads from an open file descriptor (a pipe, a socket, a file), closing it at the end
    /// when `ownsDescriptor`.
    public init(descriptor: Int32, ownsDescriptor: Bool, sourceName: String, format: FixFormat?,
                maximumLineLength: Int = 1 << 20) throws(FixInputError) {
        let raw = LineStream(source: DescriptorSource(descriptor: descriptor, ownsDescriptor: ownsDescriptor, sourceName: sourceName),
                             maximumLineLength: maximumLineLength)
        self.sourceName = sourceName
        try raw.fill(atLeast: 2)
        var lines = raw
        var gzip: GzipSource?
        if FixReader.isGzip(raw.buffered) {
            let inflating = GzipSource(compressed: raw)
            gzip = inflating
            lines = LineStream(source: inflating, maximumLineLength: maximumLineLength)
            try lines.fill(atLeast: 2)
        }
        self.lines = lines
        self.gzip = gzip
        isCompressed = gzip != nil
        if gzip != nil, FixReader.isGzip(lines.buffered) {
            // One layer only: gzip inside gzip is how small files inflate to terabytes.
            self.format = format ?? .ndjson
            source = IssueRecordSource(FixReadIssue(source: sourceName, line: 1,
                reason: "gzip: the decompressed data is gzip again; nested compression is not read (a decompression bomb?)"))
            return
        }
        let decision: FormatDetector.Decision
        if let format {
            switch format {
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
            self.format = .ndjson
            source = LineRecordSource(lines: lines, sourceName: sourceName, decoder: NDJSONLineDecoder())
        case .csv:
            self.format = .csv
            source = LineRecordSource(lines: lines, sourceName: sourceName, decoder: CSVLineDecoder())
        case .nmea:
            self.format = .nmea
            source = LineRecordSource(lines: lines, sourceName: sourceName, decoder: NMEALineDecoder())
        case .geojson:
            self.format = .geojson
            source = GeoJSONRecordSource(stream: lines, sourceName: sourceName)
        case .xml:
            let xml = XMLRecordSource(stream: lines, sourceName: sourceName, expected: format)
            try xml.readRootElement()
            self.format = xml.format ?? format ?? .gpx
            source = xml
        }
    }

    /// The next record, or nil at the end of the input.
    public func next() throws(FixInputError) -> FixRecord? {
        if let record = try source.next() { return record }
        if let problem = gzip?.problem, !reportedGzipProblem {
            reportedGzipProblem = true
            return .invalid(FixReadIssue(source: sourceName, line: lines.lineNumber + 1, reason: problem))
        }
        return nil
    }

    /// Records skipped because they are not fixes (RMC with status V, gpsd SKY reports, ...),
    /// by kind.
    public var skipped: SkipTally { source.skipped }

    /// Why the input gave no fix, for an input that gave neither a fix nor an error: the one
    /// warning `watch` prints then (SPEC §3). nil for an empty input.
    public func noFixExplanation() -> String? { source.noFixExplanation() }

    /// Bytes inflated from a gzip input so far (0 when it is not compressed).
    public var inflatedBytes: Int { gzip?.inflatedBytes ?? 0 }

    private static func isGzip(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes.count >= 2 && bytes[0] == 0x1F && bytes[1] == 0x8B
    }

    /// Reads until the first line that settles the format (or the end of input). A line longer
    /// than the line limit decides on what came of it.
    private static func detect(_ lines: LineStream) throws(FixInputError) -> FormatDetector.Decision {
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

    func next() throws(FixInputError) -> FixRecord? {
        defer { issue = nil }
        return issue.map { .invalid($0) }
    }

    var skipped: SkipTally { SkipTally() }
    func noFixExplanation() -> String? { nil }
}
