/// Guesses the format of a fix input from its first lines (SPEC §3).
///
/// It skips a UTF-8 byte-order mark, blank lines and lines starting with `#`, then looks at up
/// to 20 lines: any line starting with `$` or `!` means NMEA; else a first line starting with
/// `<` means GPX, `{` NDJSON, anything else CSV.
///
/// On a live stream it decides as early as it can: at the first `$`/`!` line (NMEA), or at a
/// first line starting with `<` (GPX). Otherwise it needs 20 lines or the end of input, since
/// `gpspipe -r` prints JSON header lines before its NMEA sentences; a slow live NDJSON or CSV
/// stream therefore starts being read after its 20th line. One exception keeps `gpspipe -w`
/// live: gpsd's WATCH line saying JSON on and NMEA off (`"json":true,"nmea":false,"raw":0`)
/// means no sentence will follow, so it decides NDJSON at once.
///
///     FormatDetector.detect(Array("{\"class\":\"VERSION\"}\n$GPRMC,...\n".utf8)[...], isComplete: true)   // .nmea
enum FormatDetector {
    static let linesExamined = 20

    /// The format, or nil when `bytes` (the start of the input) does not decide it yet and more
    /// may come. With `isComplete` (end of input, or as much as will be examined) it always
    /// decides; an input with no meaningful line counts as NDJSON.
    static func detect(_ bytes: UnsafeBufferPointer<UInt8>, isComplete: Bool) -> FixFormat? {
        if !isComplete && ByteOrderMark.mayBegin(bytes) { return nil }
        var index = ByteOrderMark.length(of: bytes)
        var first: UInt8?
        var meaningful = 0
        while index < bytes.count {
            while index < bytes.count, ASCIIBlanks.whitespace.contains(bytes[index]), bytes[index] != 0x0A { index += 1 }
            guard index < bytes.count else { break }
            let lead = bytes[index]
            let lineStart = index
            var lineEnd = index
            while lineEnd < bytes.count, bytes[lineEnd] != 0x0A { lineEnd += 1 }
            let lineIsComplete = lineEnd < bytes.count || isComplete
            index = lineEnd + 1
            if lead == 0x0A || lead == UInt8(ascii: "#") {
                if lineIsComplete { continue }
                return nil
            }
            if lead == UInt8(ascii: "$") || lead == UInt8(ascii: "!") { return .nmea }
            meaningful += 1
            if first == nil {
                first = lead
                if lead == UInt8(ascii: "<") { return .gpx }
            }
            if meaningful >= linesExamined { return decision(first) }
            if !lineIsComplete { return nil }
            if first == UInt8(ascii: "{"),
               isJSONOnlyWatch(UnsafeBufferPointer(rebasing: bytes[lineStart..<lineEnd])) {
                return .ndjson
            }
        }
        return isComplete ? decision(first) : nil
    }

    static func detect(_ bytes: ArraySlice<UInt8>, isComplete: Bool) -> FixFormat? {
        bytes.withUnsafeBufferPointer { detect($0, isComplete: isComplete) }
    }

    /// Whether `line` is gpsd's WATCH report for a JSON-only stream (what `gpspipe -w` asks for).
    static func isJSONOnlyWatch(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        contains(line, #"{"class":"WATCH""#) && contains(line, #""json":true"#)
            && contains(line, #""nmea":false"#) && (contains(line, #""raw":0"#) || !contains(line, #""raw":"#))
    }

    private static func contains(_ line: UnsafeBufferPointer<UInt8>, _ pattern: StaticString) -> Bool {
        let needle = UnsafeBufferPointer(start: pattern.utf8Start, count: pattern.utf8CodeUnitCount)
        guard line.count >= needle.count else { return false }
        for start in 0...(line.count - needle.count) where line[start] == needle[0] {
            if UnsafeBufferPointer(rebasing: line[start..<(start + needle.count)]).elementsEqual(needle) { return true }
        }
        return false
    }

    private static func decision(_ first: UInt8?) -> FixFormat {
        switch first {
        case UInt8(ascii: "<"): return .gpx
        case UInt8(ascii: "{"), nil: return .ndjson
        default: return .csv
        }
    }
}
