import LandmarkNear

/// A deterministic pseudo-random generator (SplitMix64), so that `generate --seed N` writes
/// byte-identical files on every machine and every run. Each data set draws from its own
/// stream (`SeededRandom(seed:stream:)`), so one file does not depend on the others.
struct SeededRandom: RandomNumberGenerator {
    private var generator: SplitMix64

    init(seed: UInt64, stream: String) {
        // FNV-1a of the stream name, mixed with the seed.
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in stream.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        generator = SplitMix64(seed: seed &* 0x9E37_79B9_7F4A_7C15 ^ hash)
        _ = next()
    }

    mutating func next() -> UInt64 { generator.next() }

    /// Uniform in [0, 1).
    mutating func unit() -> Double { generator.unit() }

    /// Uniform in [low, high).
    mutating func uniform(_ low: Double, _ high: Double) -> Double { low + (high - low) * unit() }

    /// Uniform integer in 0..<count.
    mutating func below(_ count: Int) -> Int { Int(next() % UInt64(count)) }

    /// Standard normal (Box–Muller).
    mutating func normal() -> Double {
        let u = 1 - unit()
        return (-2 * _log(u)).squareRoot() * _cos(2 * Double.pi * unit())
    }

    /// An area-uniform latitude in [south, north] degrees (uniform in sin(latitude)).
    mutating func areaUniformLatitude(south: Double, north: Double) -> Double {
        let s = _sin(south * .pi / 180)
        let n = _sin(north * .pi / 180)
        return _asin(uniform(s, n)) * 180 / .pi
    }
}
