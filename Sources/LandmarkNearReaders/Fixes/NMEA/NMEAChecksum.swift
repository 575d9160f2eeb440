@_spi(Inlining) import LandmarkNearCore

/// NMEA 0183's checksum: the XOR of every byte between `$` (or `!`) and `*`, written after
/// the `*` as two hex digits.
///
///     NMEAChecksum.verify(Array("$GPGLL,4916.45,N,12311.12,W,225444,A*31".utf8)[...])   // .valid
enum NMEAChecksum: Equatable {
    case valid
    /// No `*` part: nothing to verify.
    case absent
    case mismatch(written: UInt8, computed: UInt8)
    case malformed

    /// Verifies `sentence` (starting with `$`/`!`); `bodyEnd` receives the index of the `*` or
    /// the end of the sentence.
    static func verify(_ sentence: UnsafeBufferPointer<UInt8>, bodyEnd: inout Int) -> NMEAChecksum {
        var computed: UInt8 = 0
        var index = 1
        while index < sentence.count, sentence[index] != UInt8(ascii: "*") {
            computed ^= sentence[index]
            index += 1
        }
        bodyEnd = index
        guard index < sentence.count else { return .absent }
        var end = sentence.count
        while end > index + 1, ASCIIBlanks.whitespace.contains(sentence[end - 1]) { end -= 1 }
        guard end == index + 3, let high = hexDigit(sentence[index + 1]), let low = hexDigit(sentence[index + 2]) else {
            return .malformed
        }
        let written = high << 4 | low
        return written == computed ? .valid : .mismatch(written: written, computed: computed)
    }

    static func verify(_ sentence: ArraySlice<UInt8>) -> NMEAChecksum {
        var end = 0
        return sentence.withUnsafeBufferPointer { verify($0, bodyEnd: &end) }
    }

    private static func hexDigit(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - 0x30
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - 0x41 + 10
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - 0x61 + 10
        default: return nil
        }
    }

    static func hex(_ value: UInt8) -> String {
        let digits = Array("0123456789ABCDEF".utf8)
        return String(decoding: [digits[Int(value >> 4)], digits[Int(value & 15)]], as: UTF8.self)
    }
}
