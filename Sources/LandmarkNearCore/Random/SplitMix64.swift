/// SplitMix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number generators", 2014):
/// the project's one seeded generator, for the self-checks (`ShortGeodesicCheck`), the tests
/// and the benchmark data, so that a seed means the same numbers everywhere and in every run.
///
///     var random = SplitMix64(seed: 7)
///     let x = random.unit()          // uniform in [0, 1)
///     let d = Double.random(in: 0...1, using: &random)
package struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    package init(seed: UInt64) { state = seed }

    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in [0, 1), from the top 53 bits.
    package mutating func unit() -> Double { Double(next() >> 11) * 0x1.0p-53 }
}
