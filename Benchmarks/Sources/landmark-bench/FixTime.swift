import LandmarkNear
@_spi(Inlining) import LandmarkNearCore

/// Fix times: `2026-05-01T12:00:00Z` plus whole seconds, as RFC 3339 bytes (cached per second,
/// since every device of a load reports in the same second).
struct FixTime {
    static let base: Int64 = Timestamp.daysSinceEpoch(year: 2026, month: 5, day: 1) * 86_400 + 12 * 3_600

    private var cachedSecond = -1
    private(set) var bytes: [UInt8] = []

    mutating func at(_ second: Int) -> [UInt8] {
        if second != cachedSecond {
            cachedSecond = second
            bytes = Array(Timestamp(seconds: FixTime.base + Int64(second)).rfc3339.utf8)
        }
        return bytes
    }
}
