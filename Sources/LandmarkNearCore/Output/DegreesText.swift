/// A coordinate as event lines write it: the shortest decimal that reads back as the same
/// double (`JSONWriter.number`), which is what a decimal input wrote (34.011286 stays
/// 34.011286), except for a position read from NMEA minutes. There the double is the nearest
/// to a repeating quotient (3402.97560 is 34.0495933…°, whose shortest form has 17 digits:
/// 34.049593333333334), and the text is that quotient at the minutes' precision
/// (`MinuteQuotient.text`: degrees at k + 2 decimals for k decimals of minutes, at least 7:
/// 34.0495933), as many digits as a 5-decimal sentence has (one more than a 4-decimal one).
///
///     DegreesText.make(34 + 2.9756 / 60)   // "34.0495933"
///     DegreesText.make(34.011286)          // "34.011286"
///
/// Only a double whose shortest form has 15 or more significant digits, and that is exactly
/// the nearest double to some minutes with at most 7 decimals, is written as minutes; a
/// decimal input with fewer digits is always written as it came. It depends on the double
/// alone, so a fix read back from `landmark-near fixes` (which keeps all 17 digits, to read
/// back bit for bit) prints the same event line as the NMEA sentence it came from.
package enum DegreesText {
    package static func make(_ degrees: Double) -> String {
        let shortest = JSONWriter.number(degrees)
        guard significantDigits(shortest) >= 15, let (units, decimals) = MinuteQuotient.recognise(degrees.magnitude) else {
            return shortest
        }
        return (degrees < 0 ? "-" : "") + MinuteQuotient.text(units: units, decimals: decimals)
    }

    /// Digits of `text` (a `JSONWriter.number`) from its first non-zero one, before any exponent.
    static func significantDigits(_ text: String) -> Int {
        var text = text
        // Over the contiguous bytes: iterating `utf8` is slower (measured; see Benchmarks/LOG.md).
        return text.withUTF8 { bytes in
            var count = 0
            for byte in bytes {
                if byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") { break }
                guard byte &- 0x30 < 10 else { continue }
                if count > 0 || byte != UInt8(ascii: "0") { count += 1 }
            }
            return count
        }
    }
}
