#if canImport(Glibc)
import Glibc
#endif

/// Wall time from `clock_gettime(CLOCK_MONOTONIC)`, in seconds.
enum MonotonicClock {
    static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    /// Runs `body` and returns its result with the elapsed seconds.
    static func time<T>(_ body: () throws -> T) rethrows -> (T, Double) {
        let start = now()
        let result = try body()
        return (result, now() - start)
    }
}

/// The calling thread's CPU time from `clock_gettime(CLOCK_THREAD_CPUTIME_ID)`, in seconds: for
/// in-process loops on this shared machine, where wall time also counts the time other
/// processes hold the core.
enum ThreadCPUClock {
    static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
