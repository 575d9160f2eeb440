@_spi(Inlining) import LandmarkNearCore

/// The byte-level reading of one `nearest` input line (`lat,lon`, or the two numbers separated
/// by blanks; `lon,lat` after a header that says so), for the common case only: it answers
/// `.undecided` for anything it does not settle, and the caller then reads the line with
/// `QueryPoint(line:order:)`, which gives the answer or the error message. So whenever it
/// answers `.point`, `QueryPoint(line:order:)` would give the same coordinate and the same
/// texts (both parse numbers correctly rounded, and the fields it takes hold only the
/// characters QueryPoint allows).
///
///     QueryLine.scan(bytes of " 34.0 , -116 ")   // .point(34.0,-116.0, latitude "34.0", longitude "-116")
enum QueryLine {
    enum Outcome {
        /// A blank line or a `#` comment.
        case skip
        /// The coordinate and the two numbers' byte ranges in the line.
        case point(Coordinate, latitude: Range<Int>, longitude: Range<Int>)
        /// Not settled here: ask `QueryPoint(line:)`.
        case undecided
    }

    @inline(__always)
    private static func isBlank(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0A
    }

    /// Reads `line`, its two numbers in `order` (`lon,lat` after a header that says so).
    static func scan(_ line: UnsafeBufferPointer<UInt8>, order: QueryPoint.Order = .latitudeFirst) -> Outcome {
        var lower = 0
        var upper = line.count
        if upper >= 3, line[0] == 0xEF, line[1] == 0xBB, line[2] == 0xBF { lower = 3 }
        while lower < upper, isBlank(line[lower]) { lower += 1 }
        while upper > lower, isBlank(line[upper - 1]) { upper -= 1 }
        if lower == upper || line[lower] == UInt8(ascii: "#") { return .skip }
        var comma = -1
        for i in lower..<upper where line[i] == UInt8(ascii: ",") {
            guard comma < 0 else { return .undecided }
            comma = i
        }
        var first: Range<Int>
        var second: Range<Int>
        if comma >= 0 {
            first = trimmed(line, lower..<comma)
            second = trimmed(line, (comma + 1)..<upper)
        } else {
            var i = lower
            while i < upper, line[i] != 0x20, line[i] != 0x09 { i += 1 }
            first = lower..<i
            while i < upper, line[i] == 0x20 || line[i] == 0x09 { i += 1 }
            let start = i
            while i < upper, line[i] != 0x20, line[i] != 0x09 { i += 1 }
            guard i == upper else { return .undecided }
            second = start..<upper
        }
        if order == .longitudeFirst { swap(&first, &second) }
        guard let latitude = number(line, first), let longitude = number(line, second),
            latitude >= -90, latitude <= 90, longitude >= -180, longitude <= 180
        else { return .undecided }
        return .point(Coordinate(latitude: latitude, longitude: longitude), latitude: first, longitude: second)
    }

    private static func trimmed(_ line: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Range<Int> {
        var lower = range.lowerBound
        var upper = range.upperBound
        while lower < upper, isBlank(line[lower]) { lower += 1 }
        while upper > lower, isBlank(line[upper - 1]) { upper -= 1 }
        return lower..<upper
    }

    /// A finite number made only of `0-9 + - . e E` (QueryPoint's alphabet), or nil.
    @inline(__always)
    private static func number(_ line: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Double? {
        guard !range.isEmpty else { return nil }
        for i in range {
            let byte = line[i]
            guard
                byte &- 0x30 < 10 || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-")
                    || byte == UInt8(ascii: "+") || byte | 0x20 == UInt8(ascii: "e")
            else { return nil }
        }
        guard let value = DecimalNumber.parse(UnsafeBufferPointer(rebasing: line[range])), value.isFinite else { return nil }
        return value
    }
}
