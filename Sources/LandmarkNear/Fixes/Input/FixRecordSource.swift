/// What a `FixReader` reads records from, one implementation a family of formats.
protocol FixRecordSource: AnyObject {
    func next() throws(InputError) -> FixRecord?
}

/// Records from a line-based format: splits lines, skips blank and `#` lines, turns overlong
/// lines into invalid records, and hands the rest to the format's decoder.
final class LineRecordSource<Decoder: LineDecoder>: FixRecordSource {
    private let lines: LineStream
    private let sourceName: String
    private let decoder: Decoder

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
                switch decoder.decode(bytes) {
                case .fix(let fix): return .fix(fix, line: number)
                case .skip: continue
                case .invalid(let reason): return .invalid(FixReadIssue(source: sourceName, line: number, reason: reason))
                }
            }
        }
        return nil
    }

    @inline(__always)
    static func isBlankOrComment(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        for byte in bytes where !ASCIIBlanks.whitespace.contains(byte) {
            return byte == UInt8(ascii: "#")
        }
        return true
    }
}
