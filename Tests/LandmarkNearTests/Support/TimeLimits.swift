import Testing

extension Trait where Self == TimeLimitTrait {
    /// The time limit of every suite, for each of its tests: a test that hangs fails instead of
    /// holding up CI. Swift Testing counts a test's time from when it is scheduled, and the tests
    /// share a cooperative pool of one thread a core, so the limit leaves room for a loaded 2-core
    /// machine and for the AddressSanitizer run, where the index property tests alone take
    /// minutes; child processes have their own, shorter timeout (`runProcess`).
    static var suiteTimeLimit: Self { .timeLimit(.minutes(10)) }
}
