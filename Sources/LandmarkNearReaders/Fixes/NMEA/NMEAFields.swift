/// The comma-separated fields of one NMEA sentence, between the `$` and the `*`, as views into
/// the line. Only the first `capacity` fields are kept (position sentences use fewer); a field
/// past the end reads as empty.
struct NMEAFields {
    static let capacity = 16

    private let line: UnsafeBufferPointer<UInt8>
    private var lower = InlineArray<16, Int>(repeating: 0)
    private var upper = InlineArray<16, Int>(repeating: 0)
    private(set) var count = 0

    init(_ line: UnsafeBufferPointer<UInt8>, bodyEnd: Int) {
        self.line = line
        var start = 1
        var index = 1
        while index < bodyEnd, count < NMEAFields.capacity - 1 {
            if line[index] == UInt8(ascii: ",") {
                lower[count] = start
                upper[count] = index
                count += 1
                start = index + 1
            }
            index += 1
        }
        if count < NMEAFields.capacity {
            // The last field runs to the `*` (or to the next comma when fields were cut off).
            var end = start
            while end < bodyEnd, line[end] != UInt8(ascii: ",") { end += 1 }
            lower[count] = start
            upper[count] = end
            count += 1
        }
    }

    subscript(index: Int) -> UnsafeBufferPointer<UInt8> {
        guard index < count else { return UnsafeBufferPointer(start: nil, count: 0) }
        return UnsafeBufferPointer(rebasing: line[lower[index]..<upper[index]])
    }
}
