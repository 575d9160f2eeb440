/// Degrees written as whole degrees and minutes with k decimals (NMEA's `ddmm.mmmm`): the exact
/// value is n / (60·10^k) for an integer n, a fraction whose decimal form repeats
/// (34°02.9756′ = 34.0495933…°). The reader stores the double nearest it; an output can
/// recognise such a double and write the value with the precision the minutes had, instead of
/// the 17 digits of the repeating quotient.
///
///     let value = MinuteQuotient.degrees(units: 20_429_756, decimals: 4)   // 34°02.9756′ = 2042.9756′
///     MinuteQuotient.recognise(value)                     // (units: 20429756, decimals: 4)
///     MinuteQuotient.text(units: 20_429_756, decimals: 4) // "34.0495933"
package enum MinuteQuotient {
    /// 10^0 ... 10^19.
    package static let powersOfTen: [UInt64] = (0...19).map { exponent in (0..<exponent).reduce(1) { product, _ in product * 10 } }

    /// The most decimals of minutes `recognise` looks for (receivers write 2 to 5, a few 6 or 7).
    static let maximumDecimals = 7

    /// The double nearest n / (60·10^k), for n < 2^53 and k <= 11: both are exact doubles,
    /// so one IEEE division is correctly rounded.
    package static func degrees(units n: UInt64, decimals k: Int) -> Double {
        Double(n) / Double(60 * powersOfTen[k])
    }

    /// The smallest k <= `maximumDecimals` and the n for which `degrees(units: n, decimals: k)`
    /// is `magnitude` (>= 0), if there is one. Every 60·10^k' divides 60·10^7, so two different
    /// quotients with k <= 7 differ by at least 1 / (60·10^7), far more than a double's spacing
    /// below 1000 (1.1·10^-13): the n found is the only one (up to trailing zeros of the
    /// minutes, which the smallest k drops).
    static func recognise(_ magnitude: Double) -> (units: UInt64, decimals: Int)? {
        guard magnitude >= 0, magnitude < 1000 else { return nil }
        for k in 0...maximumDecimals {
            let unit = Double(60 * powersOfTen[k])
            let scaled = (magnitude * unit).rounded()
            guard scaled < 9_007_199_254_740_992 else { return nil }
            if scaled / unit == magnitude { return (UInt64(scaled), k) }
        }
        return nil
    }

    /// n / (60·10^k) rounded to p = max(k + 2, 7) decimals, without trailing zeros. A step of
    /// 10^-(k+2) degrees is finer than the minutes' own 10^-k / 60, so different minutes keep
    /// different texts and the minutes can be read back from the text. At least 7 decimals
    /// (1.1 cm): `recognise` cannot see trailing zeros (2.97560′ is 2.9756′), so a receiver
    /// writing 5 decimals of minutes would otherwise get every tenth position at 6 decimals,
    /// rounded onto a neighbouring sentence's value. The digits are those of
    /// (n mod 60·10^k)·10^(p-k) / 60, rounded; no tie can occur, as that product's remainder
    /// over 60 is 0, 20 or 40 (10^j ≡ 40 mod 60 for j >= 2).
    package static func text(units n: UInt64, decimals k: Int) -> String {
        let unit = 60 * powersOfTen[k]
        let p = max(k + 2, 7)
        let whole = n / unit
        let product = (n % unit) * powersOfTen[p - k]
        var fraction = product / 60 + (product % 60 > 30 ? 1 : 0)
        var digits = p
        while digits > 0, fraction % 10 == 0 {
            fraction /= 10
            digits -= 1
        }
        guard digits > 0 else { return String(whole) }
        let written = String(fraction)
        return String(whole) + "." + String(repeating: "0", count: digits - written.count) + written
    }
}
