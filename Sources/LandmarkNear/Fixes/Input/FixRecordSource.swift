/// What a `FixReader` reads records from, one implementation a family of formats.
protocol FixRecordSource: AnyObject {
    func next() throws(InputError) -> FixRecord?
    /// Records skipped as not fixes, by kind.
    var skipped: SkipTally { get }
    /// Why the input gave no fix, when it gave none and no error; nil for an input with
    /// nothing in it (blank, comments only).
    func noFixExplanation() -> String?
}

/// Records from a line-based format: splits lines, skips blank and `#` lines, turns overlong
/// lines into invalid records, and hands the rest to the format's decoder.
final class LineRecordSource<Decoder: LineDecoder>: FixRecordSource {
    private let lines: LineStream
    private let sourceName: String
    let decoder: Decoder
    private(set) var skipped = SkipTally()
    private var linesDecoded = 0

    init(lines: LineStream, sourceName: String, decoder: Decoder) {
        self.lines = lines
        self.sourceName = sourceName
        self.decoder = decoder
    }

    func next() throws(InputError) -> FixRecord? {
        while let line = try lines.nextLine() {
            switch line {
            case .overlong(let number):
                return .invalid(FixReadIssue(source: sourceName, line: number,
                                             reason: "line longer than \(lines.maximumLineLength) bytes; skipped"))
            case .text(let bytes, let number):
                if LineRecordSource.isBlankOrComment(bytes) { continue }
                linesDecoded += 1
                switch decoder.decode(bytes) {
                case .fix(let fix): return .fix(fix, line: number)
                case .skip(let kind):
                    if let kind { skipped.add(kind) }
                    continue
                case .invalid(let reason): return .invalid(FixReadIssue(source: sourceName, line: number, reason: reason))
                }
            }
        }
        return nil
    }

    func noFixExplanation() -> String? {
        if !skipped.isEmpty { return "\(decoder.noFixPrefix): \(skipped)" }
        return decoder.noFixExplanation(linesDecoded: linesDecoded)
    }

    @inline(__always)
    static func isBlankOrComment(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        for byte in bytes where !ASCIIBlanks.whitespace.contains(byte) {
            return byte == UInt8(ascii: "#")
        }
        return true
    }
}
