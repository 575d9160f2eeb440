/// Numbers written as ASCII digits straight into a byte buffer, without Foundation's
/// `String(format:)` (measured: half the cost of a `nearest` answer; see Benchmarks/LOG.md) and
/// without a String:
///
/// - `appendFixed3`: the digits C's `printf("%.3f")` gives for a non-negative double, i.e. the
///   exact binary value rounded to three decimals, exact ties to even. The rounding is decided
///   on the exact product v·1000 = t + e, where t is the rounded product and e its error, which
///   a fused multiply-add gives exactly (e = fma(v, 1000, −t)). With n = ⌊t⌋, the exact fraction
///   is (t − n) + e; (t − n) − 0.5 is exact when t − n >= 0.25 (Sterbenz) and surely negative
///   otherwise, and the sign of a correctly rounded sum is the sign of the exact sum. So
///   the comparison with one half is exact.
/// - `appendMillimetres`: `JSONWriter.number((m * 1000).rounded() / 1000)` for a distance in
///   metres. That value is n/1000 correctly rounded (n = (m·1000).rounded()); its shortest
///   round-trip form is n/1000 in decimal without trailing zeros, because below 2^53/1000 m
///   no decimal with fewer digits lies within half an ulp of it (neighbouring three-decimal
///   values are 0.001 apart, the doubles ~10⁻⁹). Integral values print without ".0", as
///   `JSONWriter.number` writes them.
///
/// Both also say how close the value was to a rounding boundary, so that a caller holding an
/// approximate value (within `error`) knows whether the exact one could print differently.
///
///     var bytes: [UInt8] = []
///     DecimalDigits.appendFixed3(15.4655, to: &bytes)   // "15.465" (15.4655 is 15.46549999… in binary)
enum DecimalDigits {
    /// Appends `printf("%.3f", value)` for 0 <= value < 1e15.
    @inline(__always)
    static func appendFixed3(_ value: Double, to out: inout [UInt8]) {
        appendThousandths(roundedThousandths(value), to: &out, trimZeros: false)
    }

    /// round-half-even(value · 1000) taken exactly, for 0 <= value < 1e12.
    @inline(__always)
    static func roundedThousandths(_ value: Double) -> UInt64 {
        let t = value * 1000
        let e = (-t).addingProduct(value, 1000)
        let n = t.rounded(.down)
        let above = ((t - n) - 0.5) + e
        let whole = UInt64(n)
        if above > 0 { return whole + 1 }
        if above < 0 { return whole }
        return whole & 1 == 0 ? whole : whole + 1
    }

    /// Whether `value` (known within `error`) is farther than `error` from every boundary
    /// where `%.3f` would round differently, so that the exact value prints the same.
    @inline(__always)
    static func fixed3IsSettled(_ value: Double, error: Double) -> Bool {
        let t = value * 1000
        let fraction = t - t.rounded(.down)
        return abs(fraction - 0.5) > error * 1000 + 1e-6
    }

    /// Appends `JSONWriter.number((metres * 1000).rounded() / 1000)` for 0 <= metres < 1e12.
    @inline(__always)
    static func appendMillimetres(_ metres: Double, to out: inout [UInt8]) {
        let n = UInt64((metres * 1000).rounded())
        appendThousandths(n, to: &out, trimZeros: true)
    }

    /// Whether `metres` (known within `error`) rounds to the same millimetre as every value
    /// within `error` of it.
    @inline(__always)
    static func millimetresAreSettled(_ metres: Double, error: Double) -> Bool {
        let t = metres * 1000
        let fraction = t - t.rounded(.down)
        return abs(fraction - 0.5) > error * 1000 + 1e-6
    }

    /// n / 1000 with three decimals ("12.340"), or with trailing zeros and a bare point removed
    /// ("12.34", "12").
    @inline(__always)
    static func appendThousandths(_ n: UInt64, to out: inout [UInt8], trimZeros: Bool) {
        appendInteger(n / 1000, to: &out)
        var fraction = Int(n % 1000)
        if trimZeros {
            if fraction == 0 { return }
            out.append(UInt8(ascii: "."))
            var digits = 3
            while fraction % 10 == 0 {
                fraction /= 10
                digits -= 1
            }
            var divisor = digits == 3 ? 100 : digits == 2 ? 10 : 1
            while divisor > 0 {
                out.append(UInt8(truncatingIfNeeded: 0x30 + fraction / divisor % 10))
                divisor /= 10
            }
            return
        }
        out.append(UInt8(ascii: "."))
        out.append(UInt8(truncatingIfNeeded: 0x30 + fraction / 100))
        out.append(UInt8(truncatingIfNeeded: 0x30 + fraction / 10 % 10))
        out.append(UInt8(truncatingIfNeeded: 0x30 + fraction % 10))
    }

    /// The decimal digits of `n`.
    @inline(__always)
    static func appendInteger(_ n: UInt64, to out: inout [UInt8]) {
        if n < 10 {
            out.append(UInt8(truncatingIfNeeded: 0x30 + n))
            return
        }
        var digits:
            (
                UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8
            ) =
                (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        var rest = n
        withUnsafeMutableBytes(of: &digits) { buffer in
            while rest > 0 {
                buffer[count] = UInt8(truncatingIfNeeded: 0x30 + rest % 10)
                rest /= 10
                count += 1
            }
            while count > 0 {
                count -= 1
                out.append(buffer[count])
            }
        }
    }

    /// The decimal digits of `n`, with a minus sign when negative.
    @inline(__always)
    static func appendInteger(_ n: Int, to out: inout [UInt8]) {
        if n < 0 { out.append(UInt8(ascii: "-")) }
        appendInteger(n.magnitude.toUInt64, to: &out)
    }
}

extension UInt {
    fileprivate var toUInt64: UInt64 { UInt64(self) }
}
