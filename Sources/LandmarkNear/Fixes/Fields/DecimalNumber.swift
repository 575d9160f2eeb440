import Glibc

/// Reads decimal numbers from UTF-8 bytes without building a String: the common short forms
/// (`-116.166868`, `1777636802`, `12.5e3`) exactly through Clinger's fast path, anything
/// longer or unusual through `strtod`, so results are always correctly rounded.
///
///     DecimalNumber.parse(Array("34.011286".utf8))   // 34.011286
enum DecimalNumber {
    private static let powersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]

    /// A number in JSON's grammar or the looser forms people write in CSV cells and strings
    /// (`+1.5`, `.5`, `5.`, surrounding spaces, `NaN`, `inf`); nil when it is not a number.
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        var lower = 0
        var upper = bytes.count
        while lower < upper, bytes[lower] == 0x20 || bytes[lower] == 0x09 { lower += 1 }
        while upper > lower, bytes[upper - 1] == 0x20 || bytes[upper - 1] == 0x09 { upper -= 1 }
        guard lower < upper else { return nil }
        let text = UnsafeBufferPointer(rebasing: bytes[lower..<upper])
        if let value = fastPath(text) { return value }
        return slowPath(text)
    }

    static func parse(_ bytes: [UInt8]) -> Double? {
        bytes.withUnsafeBufferPointer { parse($0) }
    }

    /// Plain decimals with at most 19 digits and a small exponent; nil when it does not apply.
    private static func fastPath(_ text: UnsafeBufferPointer<UInt8>) -> Double? {
        var index = 0
        var negative = false
        if text[0] == UInt8(ascii: "-") || text[0] == UInt8(ascii: "+") {
            negative = text[0] == UInt8(ascii: "-")
            index = 1
        }
        var mantissa: UInt64 = 0
        var digits = 0
        var fractionDigits = 0
        while index < text.count, text[index] &- 0x30 < 10 {
            mantissa = mantissa &* 10 &+ UInt64(text[index] &- 0x30)
            digits += 1
            index += 1
        }
        if index < text.count, text[index] == UInt8(ascii: ".") {
            index += 1
            while index < text.count, text[index] &- 0x30 < 10 {
                mantissa = mantissa &* 10 &+ UInt64(text[index] &- 0x30)
                digits += 1
                fractionDigits += 1
                index += 1
            }
        }
        guard digits > 0, digits <= 19 else { return nil }
        var exponent = -fractionDigits
        if index < text.count, text[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            var exponentNegative = false
            if index < text.count, text[index] == UInt8(ascii: "-") || text[index] == UInt8(ascii: "+") {
                exponentNegative = text[index] == UInt8(ascii: "-")
                index += 1
            }
            var value = 0
            var exponentDigits = 0
            while index < text.count, text[index] &- 0x30 < 10, exponentDigits < 6 {
                value = value * 10 + Int(text[index] &- 0x30)
                exponentDigits += 1
                index += 1
            }
            guard exponentDigits > 0 else { return nil }
            exponent += exponentNegative ? -value : value
        }
        guard index == text.count, mantissa <= 1 << 53, abs(exponent) <= 22 else { return nil }
        var value = Double(mantissa)
        value = exponent < 0 ? value / powersOfTen[-exponent] : value * powersOfTen[exponent]
        return negative ? -value : value
    }

    private static func slowPath(_ text: UnsafeBufferPointer<UInt8>) -> Double? {
        guard text.count < 512 else { return nil }
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: text.count + 1) { buffer -> Double? in
            for i in 0..<text.count {
                // strtod would stop at a NUL; a NUL inside the text makes it not a number.
                guard text[i] != 0 else { return nil }
                buffer[i] = CChar(bitPattern: text[i])
            }
            buffer[text.count] = 0
            let base = buffer.baseAddress!
            var stop: UnsafeMutablePointer<CChar>?
            errno = 0
            let value = strtod(base, &stop)
            guard let stop, stop - base == text.count else { return nil }
            // Hexadecimal floats are not numbers people write in location logs.
            if text.contains(where: { $0 | 0x20 == UInt8(ascii: "x") }) { return nil }
            return value
        }
    }
}
