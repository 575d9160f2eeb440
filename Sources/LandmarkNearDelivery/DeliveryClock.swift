#if canImport(Glibc)
import Glibc
#endif

/// The two clocks deliveries use: wall-clock epoch seconds (JWT `iat`, `apns-expiration`) and a
/// monotonic clock for retry schedules (immune to clock steps).
package enum DeliveryClock {
    static func epochSeconds() -> Double { read(CLOCK_REALTIME) }
    package static func monotonicSeconds() -> Double { read(CLOCK_MONOTONIC) }

    private static func read(_ clock: clockid_t) -> Double {
        var time = timespec()
        clock_gettime(clock, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
