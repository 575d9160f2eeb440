@_spi(Inlining) import LandmarkNearCore

/// What a `FixReader` reads records from, one implementation a family of formats.
protocol FixRecordSource: AnyObject {
    func next() throws(InputError) -> FixRecord?
    /// Records skipped as not fixes, by kind.
    var skipped: SkipTally { get }
    /// Why the input gave no fix, when it gave none and no error (also when it held only
    /// comments or white space); nil when the source has nothing to say (an empty input).
    func noFixExplanation() -> String?
    /// The first fix time without a zone, and its line (`ZonelessTime`); nil while there was none.
    var zonelessTime: ZonelessTime? { get }
}

/// Records from a line-based format: splits lines, skips blank and `#` lines, turns overlong
/// lines into invalid records, and hands the rest to the format's decoder.
final class LineRecordSource<Decoder: LineDecoder>: FixRecordSource {
    private let lines: LineStream
    private let sourceName: String
    let decoder: Decoder
    private(set) var skipped = SkipTally()
    private var linesDecoded = 0
    /// Lines skipped before decoding, for the warning about an input that held only them.
    private var commentLines = 0
    private var blankLines = 0
    private(set) var zonelessTime: ZonelessTime?
    /// `zonelessTime != nil`, asked a line: a flag, not a copy of the time's text.
    private var notedZonelessTime = false

    init(lines: LineStream, sourceName: String, decoder: Decoder) {
        self.lines = lines
        self.sourceName = sourceName
        self.decoder = decoder
    }

    /// The decoder found the input unusable: nothing more is read.
    private var abandoned = false

    func next() throws(InputError) -> FixRecord? {
        if abandoned { return nil }
        while let line = try lines.nextLine() {
            switch line {
            case .overlong(let number):
                return .invalid(
                    FixReadIssue(
                        source: sourceName, line: number,
                        reason: "line longer than \(lines.maximumLineLength) bytes; skipped"))
            case .text(let bytes, let number):
                if LineRecordSource.isBlankOrComment(bytes) {
                    if bytes.contains(UInt8(ascii: "#")) { commentLines += 1 } else { blankLines += 1 }
                    continue
                }
                linesDecoded += 1
                switch decoder.decode(bytes, notingZonelessTime: !notedZonelessTime) {
                case .fix(let fix):
                    return .fix(fix, line: number)
                case .fixWithZonelessTime(let fix, let text):
                    zonelessTime = ZonelessTime(line: number, bytes: text)
                    notedZonelessTime = true
                    return .fix(fix, line: number)
                case .skip(let kind):
                    if let kind { skipped.add(kind) }
                    continue
                case .invalid(let reason): return .invalid(FixReadIssue(source: sourceName, line: number, reason: reason))
                case .unusable(let reason):
                    abandoned = true
                    return .invalid(FixReadIssue(source: sourceName, line: number, reason: reason))
                }
            }
        }
        return nil
    }

    func noFixExplanation() -> String? {
        if !skipped.isEmpty { return "\(decoder.noFixPrefix): \(skipped)" }
        if let why = decoder.noFixExplanation(linesDecoded: linesDecoded) { return why }
        guard linesDecoded == 0 else { return nil }
        return NothingReadExplanation.lines(comments: commentLines, blanks: blankLines)
    }

    @inline(__always)
    static func isBlankOrComment(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        for byte in bytes where !ASCIIBlanks.whitespace.contains(byte) {
            return byte == UInt8(ascii: "#")
        }
        return true
    }
}
