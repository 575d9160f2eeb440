@_spi(Inlining) import LandmarkNearCore

/// The NDJSON fast path: reads a flat JSON object whose strings hold only printable ASCII
/// without escapes, straight from the line's bytes into `FixFields`.
///
/// It returns false, having decided nothing, as soon as the line is anything else — nested
/// values, escapes, non-ASCII, or any syntax error — and the caller then uses the strict
/// `JSONParser`. So whenever it returns true the line is valid JSON and the fields are those
/// the parser would have given.
enum NDJSONFlatScanner {
    package static func scan(_ line: UnsafeBufferPointer<UInt8>, into fields: inout FixFields) -> Bool {
        let count = line.count
        var i = 0
        @inline(__always) func skipSpace() {
            while i < count, ASCIIBlanks.whitespace.contains(line[i]) { i += 1 }
        }
        /// Scans a string starting at its opening quote; the range of its contents, or nil.
        @inline(__always) func scanString() -> Range<Int>? {
            i += 1
            let lower = i
            // Eight bytes a step up to the first that is not plain (`JSONStringWord`): a byte at
            // a time, this scan took half as long again on a fix's keys, device name and time
            // (see Benchmarks/LOG.md). The loop below decides from that byte on.
            while i + 8 <= count {
                let flagged = JSONStringWord.flagged(line, at: i)
                if flagged != 0 {
                    i += flagged.trailingZeroBitCount / 8
                    break
                }
                i += 8
            }
            while i < count {
                let byte = line[i]
                if byte == UInt8(ascii: "\"") {
                    i += 1
                    return lower..<(i - 1)
                }
                if byte < 0x20 || byte >= 0x80 || byte == UInt8(ascii: "\\") { return nil }
                i += 1
            }
            return nil
        }
        skipSpace()
        guard i < count, line[i] == UInt8(ascii: "{") else { return false }
        i += 1
        skipSpace()
        if i < count, line[i] == UInt8(ascii: "}") {
            i += 1
            skipSpace()
            return i == count
        }
        while true {
            skipSpace()
            guard i < count, line[i] == UInt8(ascii: "\""), let keyRange = scanString() else { return false }
            skipSpace()
            guard i < count, line[i] == UInt8(ascii: ":") else { return false }
            i += 1
            skipSpace()
            guard i < count else { return false }
            let match = FieldRole.match(UnsafeBufferPointer(rebasing: line[keyRange]))
            let value: FieldValue
            switch line[i] {
            case UInt8(ascii: "\""):
                guard let range = scanString() else { return false }
                value = .text(UnsafeBufferPointer(rebasing: line[range]))
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                let lower = i
                guard let end = JSONNumberGrammar.end(ofNumberIn: line, from: i) else { return false }
                i = end
                if match != nil {
                    guard let number = DecimalNumber.parseJSON(UnsafeBufferPointer(rebasing: line[lower..<i])) else { return false }
                    value = .number(number)
                } else {
                    value = .absent
                }
            case UInt8(ascii: "t"):
                guard literal(line, &i, "true") else { return false }
                value = .bool(true)
            case UInt8(ascii: "f"):
                guard literal(line, &i, "false") else { return false }
                value = .bool(false)
            case UInt8(ascii: "n"):
                guard literal(line, &i, "null") else { return false }
                value = .null
            default:
                return false
            }
            if let (role, rank) = match { fields.set(role, rank: rank, value) }
            skipSpace()
            guard i < count else { return false }
            if line[i] == UInt8(ascii: ",") {
                i += 1
                continue
            }
            guard line[i] == UInt8(ascii: "}") else { return false }
            i += 1
            skipSpace()
            return i == count
        }
    }

    @inline(__always)
    private static func literal(_ line: UnsafeBufferPointer<UInt8>, _ i: inout Int, _ word: StaticString) -> Bool {
        let length = word.utf8CodeUnitCount
        guard i + length <= line.count else { return false }
        for k in 0..<length where line[i + k] != word.utf8Start[k] { return false }
        i += length
        return true
    }
}
