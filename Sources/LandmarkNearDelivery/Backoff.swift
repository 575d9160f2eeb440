/// Delays between tries of a temporary failure (docs/reference/delivery.md): 1 s, doubling, at most 5 minutes,
/// with "equal jitter" (half the delay fixed, half random) so that many deliveries failing
/// together do not come back together.
///
///     var random = SystemRandomNumberGenerator()
///     Backoff.delay(afterAttempt: 1, using: &random)   // 0.5 ... 1 s
///     Backoff.delay(afterAttempt: 12, using: &random)  // 150 ... 300 s
enum Backoff {
    static let initial = 1.0
    static let maximum = 300.0

    /// The nominal delay after `attempt` failed tries (1-based), before jitter.
    static func nominal(afterAttempt attempt: Int) -> Double {
        let exponent = Double(min(max(attempt - 1, 0), 30))
        return min(maximum, initial * pow2(exponent))
    }

    static func delay(afterAttempt attempt: Int, using random: inout some RandomNumberGenerator) -> Double {
        let nominal = nominal(afterAttempt: attempt)
        return nominal / 2 + Double.random(in: 0...(nominal / 2), using: &random)
    }

    private static func pow2(_ exponent: Double) -> Double {
        var value = 1.0
        for _ in 0..<Int(exponent) { value *= 2 }
        return value
    }
}
