import Glibc

/// Reads decimal numbers from UTF-8 bytes without building a String: the common short forms
/// (`-116.166868`, `1777636802`, `12.5e3`) exactly through Clinger's fast path, anything
/// longer or unusual through `strtod`, so results are always correctly rounded.
///
///     DecimalNumber.parse(Array("34.011286".utf8))   // 34.011286
@_spi(Inlining) public enum DecimalNumber {
    /// 10^exponent for 0...22, all exact in a Double.
    @inlinable @inline(__always)
    static func powerOfTen(_ exponent: Int) -> Double {
        switch exponent {
        case 0: return 1
        case 1: return 1e1
        case 2: return 1e2
        case 3: return 1e3
        case 4: return 1e4
        case 5: return 1e5
        case 6: return 1e6
        case 7: return 1e7
        case 8: return 1e8
        case 9: return 1e9
        case 10: return 1e10
        case 11: return 1e11
        case 12: return 1e12
        case 13: return 1e13
        case 14: return 1e14
        case 15: return 1e15
        case 16: return 1e16
        case 17: return 1e17
        case 18: return 1e18
        case 19: return 1e19
        case 20: return 1e20
        case 21: return 1e21
        default: return 1e22
        }
    }

    /// A number in JSON's grammar or the looser forms people write in CSV cells and strings
    /// (`+1.5`, `.5`, `5.`, surrounding spaces, `NaN`, `inf`); nil when it is not a number.
    @inlinable
    public static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        let text = ASCIIBlanks.spacesAndTabs.trimming(bytes)
        guard !text.isEmpty else { return nil }
        if let value = fastPath(text) { return value }
        return slowPath(text)
    }

    /// A number already known to follow JSON's grammar exactly (no spaces): the NDJSON scanner's.
    @inlinable @inline(__always)
    public static func parseJSON(_ text: UnsafeBufferPointer<UInt8>) -> Double? {
        if let value = fastPath(text) { return value }
        return slowPath(text)
    }

    static func parse(_ bytes: [UInt8]) -> Double? {
        bytes.withUnsafeBufferPointer { parse($0) }
    }

    /// Plain decimals with at most 19 digits and a small exponent; nil when it does not apply.
    @inlinable @inline(__always)
    static func fastPath(_ text: UnsafeBufferPointer<UInt8>) -> Double? {
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
        value = exponent < 0 ? value / powerOfTen(-exponent) : value * powerOfTen(exponent)
        return negative ? -value : value
    }

    @usableFromInline
    static func slowPath(_ text: UnsafeBufferPointer<UInt8>) -> Double? {
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
