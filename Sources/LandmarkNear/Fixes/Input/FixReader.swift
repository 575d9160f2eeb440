import Glibc

/// Reads location fixes from a file or standard input, in any format of SPEC §3, streaming:
/// records come one at a time, as soon as their line arrives on a live pipe, in bounded memory.
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
    /// The format read: the one forced, or the one detected.
    public let format: FixFormat
    /// The file path as given, or `<stdin>`: the source named in issues.
    public let sourceName: String
    private let source: any FixRecordSource
    private let lines: LineStream

    /// Whether the input is a pipe, terminal or socket (a live stream) rather than a regular file.
    public var isLive: Bool { lines.isLive }

    /// Called before each read of more input, from then on (see `InputPauseHandler`); held weakly.
    public var pauseHandler: (any InputPauseHandler)? {
        get { lines.pauseHandler }
        set { lines.pauseHandler = newValue }
    }

    /// Opens `input` and, when `format` is nil, detects its format from its first lines
    /// (which may wait for up to 20 lines on a live NDJSON or CSV stream; see `FormatDetector`).
    public convenience init(input: FixInput, format: FixFormat?, pauseHandler: (any InputPauseHandler)? = nil) throws(InputError) {
        switch input {
        case .standardInput:
            try self.init(descriptor: STDIN_FILENO, ownsDescriptor: false, sourceName: input.sourceName, format: format,
                          pauseHandler: pauseHandler)
        case .file(let path):
            let descriptor = try InputFile.open(path)
            try self.init(descriptor: descriptor, ownsDescriptor: true, sourceName: path, format: format,
                          pauseHandler: pauseHandler)
        }
    }

    /// Reads from an open file descriptor (a pipe, a socket, a file), closing it at the end
    /// when `ownsDescriptor`.
    public init(descriptor: Int32, ownsDescriptor: Bool, sourceName: String, format: FixFormat?,
                maximumLineLength: Int = 1 << 20, pauseHandler: (any InputPauseHandler)? = nil) throws(InputError) {
        let lines = LineStream(descriptor: descriptor, ownsDescriptor: ownsDescriptor, sourceName: sourceName,
                               maximumLineLength: maximumLineLength)
        // Set before detection, so that a signal during detection is seen too.
        lines.pauseHandler = pauseHandler
        self.lines = lines
        self.sourceName = sourceName
        let chosen: FixFormat
        if let format { chosen = format } else { chosen = try FixReader.detect(lines) }
        self.format = chosen
        switch chosen {
        case .ndjson: source = LineRecordSource(lines: lines, sourceName: sourceName, decoder: NDJSONLineDecoder())
        case .csv: source = LineRecordSource(lines: lines, sourceName: sourceName, decoder: CSVLineDecoder())
        case .nmea: source = LineRecordSource(lines: lines, sourceName: sourceName, decoder: NMEALineDecoder())
        case .gpx: source = GPXRecordSource(stream: lines, sourceName: sourceName)
        }
    }

    /// The next record, or nil at the end of the input.
    public func next() throws(InputError) -> FixRecord? {
        try source.next()
    }

    /// How long a live stream may pause during detection before the lines that did arrive
    /// decide: a slow NDJSON or CSV stream (one fix a second) then starts at once instead of
    /// after its 20th line. Files and bursts are always examined over the full 20 lines.
    static let detectionPauseMilliseconds: Int32 = 300

    /// Whether some line is neither blank, a `#` comment, nor a gpsd report (`{"class":...`):
    /// `gpspipe -r` prints its JSON headers, then pauses until the receiver's first sentence,
    /// so a pause after headers alone decides nothing.
    private static func hasDecisiveLine(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let gpsdReport = Array(#"{"class":"#.utf8)
        var index = 0
        while index < bytes.count {
            var lineEnd = index
            while lineEnd < bytes.count, bytes[lineEnd] != 0x0A { lineEnd += 1 }
            var first = index == 0 ? ByteOrderMark.length(of: bytes) : index
            while first < lineEnd, ASCIIBlanks.whitespace.contains(bytes[first]) { first += 1 }
            if first < lineEnd, bytes[first] != UInt8(ascii: "#"),
               !UnsafeBufferPointer(rebasing: bytes[first..<lineEnd]).starts(with: gpsdReport) {
                return true
            }
            index = lineEnd + 1
        }
        return false
    }

    private static func detect(_ lines: LineStream) throws(InputError) -> FixFormat {
        while true {
            let buffered = lines.buffered
            let complete = lines.reachedEnd || buffered.count > lines.maximumLineLength
            if let format = FormatDetector.detect(buffered, isComplete: complete) { return format }
            if !lines.hasInput(within: detectionPauseMilliseconds),
               let lastNewline = buffered.lastIndex(of: 0x0A),
               hasDecisiveLine(UnsafeBufferPointer(rebasing: buffered[...lastNewline])),
               let format = FormatDetector.detect(UnsafeBufferPointer(rebasing: buffered[...lastNewline]), isComplete: true) {
                return format
            }
            try lines.readMore()
        }
    }
}
