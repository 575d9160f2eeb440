@_spi(Inlining) import LandmarkNearCore
import LandmarkNearReaders

/// `POST /fixes`: NDJSON in the shapes of docs/reference/fixes.md (plain fixes, gpsd TPV reports, OwnTracks
/// messages), one object a line. Blank lines and `#` comments are skipped, as are objects that
/// are not fixes (other gpsd classes, other OwnTracks types); every other line is a fix or a
/// rejection with its 1-based line number.
///
///     FixesBodyDecoder.decode(Array("{\"device\":\"d1\",\"lat\":34.0,\"lon\":-116.1}\n".utf8))
enum FixesBodyDecoder {
    static let source = "/fixes"

    static func decode(_ body: [UInt8]) -> [FixRecord] {
        let decoder = NDJSONLineDecoder()
        var records: [FixRecord] = []
        body.withUnsafeBufferPointer { bytes in
            var start = 0
            // A UTF-8 byte-order mark at the start is not part of the first line.
            if bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF { start = 3 }
            var lineNumber = 0
            while start < bytes.count {
                var end = start
                while end < bytes.count && bytes[end] != 0x0A { end += 1 }
                lineNumber += 1
                var lineEnd = end
                if lineEnd > start && bytes[lineEnd - 1] == 0x0D { lineEnd -= 1 }
                var first = start
                while first < lineEnd && (bytes[first] == 0x20 || bytes[first] == 0x09) { first += 1 }
                if first < lineEnd && bytes[first] != UInt8(ascii: "#") {
                    let line = UnsafeBufferPointer(rebasing: bytes[first..<lineEnd])
                    switch decoder.decode(line) {
                    case .fix(let fix), .fixWithZonelessTime(let fix, _): records.append(.fix(fix, line: lineNumber))
                    case .skip: break
                    // NDJSON has no header that could make the rest unusable: both are this line's.
                    case .invalid(let reason), .unusable(let reason):
                        records.append(.invalid(FixReadIssue(source: source, line: lineNumber, reason: reason)))
                    }
                }
                start = end + 1
            }
        }
        return records
    }
}
