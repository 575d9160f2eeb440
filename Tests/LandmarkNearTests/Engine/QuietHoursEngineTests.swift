import Testing

@_spi(Inlining) @testable import LandmarkNearCore
@testable import LandmarkNearEngine

/// The engine's `quiet` suppression: after the profile, before the cooldown; it does not start
/// the cooldown; never for an untimed fix; a dwell is judged by its own time.
@Suite(.suiteTimeLimit) struct QuietHoursEngineTests {
    private typealias F = EngineFixtures
    /// 12:00–13:00 UTC; the fixtures' time 0 is 2026-05-01T12:00:00Z.
    private static func noon() throws -> QuietHours { try QuietHours(from: "12:00", to: "13:00", timeZone: "UTC") }
    private let near = F.point(100)
    private let far = F.point(30_000)

    private func run(_ fixes: [Fix], profiles: [String: DeviceProfiles.Profile], dwell: Double? = nil) throws -> [String] {
        try F.run(fixes) { configuration in
            configuration.profiles = DeviceProfiles(profiles)
            configuration.cooldown = 7200
            configuration.dwell = dwell
        }.flatMap { $0.1.map(\.summary) }
    }

    @Test func quietEnterDoesNotStartTheCooldown() throws {
        let events = try run(
            [F.fix(near, at: 1800), F.fix(far, at: 2400), F.fix(near, at: 3600)], profiles: ["d1": .init(quietHours: Self.noon())])
        // 12:30 quiet; 13:00 is past the window, and the quiet enter left no cooldown behind.
        #expect(events == ["enter 0 quiet", "exit 0", "enter 0"])
    }

    @Test func theProfileComesFirstThenQuietThenTheCooldown() throws {
        let silent = try run([F.fix(near, at: 600)], profiles: ["d1": .init(prefersNotifications: false, quietHours: Self.noon())])
        #expect(silent == ["enter 0 profile"])
        // Notified at 11:30; at 12:10 both quiet and the cooldown hold: quiet is told; at 13:00
        // the cooldown of the 11:30 notification still holds.
        let events = try run(
            [
                F.fix(near, at: -1800), F.fix(far, at: -1200), F.fix(near, at: 600), F.fix(far, at: 1200), F.fix(near, at: 3600),
            ], profiles: ["d1": .init(quietHours: Self.noon())])
        #expect(events == ["enter 0", "exit 0", "enter 0 quiet", "exit 0", "enter 0 cooldown"])
    }

    @Test func untimedFixesAndOtherDevicesAreNeverQuiet() throws {
        let events = try run(
            [F.fix(near), F.fix(near, device: "d2", at: 600)], profiles: ["d1": .init(quietHours: Self.noon())])
        #expect(events == ["enter 0", "enter 0"])
    }

    @Test func aPassBetweenFixesIsJudgedAtItsInterpolatedTime() throws {
        let west = F.point(5_000, azimuth: 270)
        let east = F.point(5_000, azimuth: 90)
        let noon = try Self.noon()
        func pass(from start: Int64, to end: Int64) throws -> [String] {
            try F.run([F.fix(west, at: start), F.fix(east, at: end)]) { configuration in
                configuration.profiles = DeviceProfiles(["d1": .init(quietHours: noon)])
                configuration.radius = 1_000
                configuration.crossingGap = 1_200
            }.flatMap { $0.1.map { "\($0.summary)\($0.via == .crossing ? " via crossing" : "")" } }
        }
        // Passed halfway, at 12:58:20 (in the window) though the later fix is at 13:06:40.
        // (The later fix, 5 km on, then leaves it.)
        #expect(try pass(from: 3000, to: 4000) == ["enter 0 quiet via crossing", "exit 0"])
        // Passed at 13:05, after the window, though the first fix was in it.
        #expect(try pass(from: 3400, to: 4400) == ["enter 0 via crossing", "exit 0"])
    }

    @Test func restoredDevicesKeepTheirQuietHours() throws {
        // `--state` and reloads make a fresh engine and restore every device into it.
        var configuration = EngineConfiguration()
        configuration.profiles = DeviceProfiles(["d1": .init(quietHours: try Self.noon())])
        let engine = try ProximityEngine(catalog: .embedded, configuration: configuration)
        engine.restore(DeviceSnapshot(device: "d1", latestTime: F.time(-60), fixCount: 3))
        var events: [ProximityEvent] = []
        engine.process(F.fix(near, at: 600), into: &events)
        #expect(events.map(\.summary) == ["enter 0 quiet"])
    }

    @Test func aDwellIsJudgedAtItsOwnTime() throws {
        // Entered 11:58 (before the window): the dwell fires at 12:01, in it.
        let quiet = try run([F.fix(near, at: -120), F.fix(near, at: 60)], profiles: ["d1": .init(quietHours: Self.noon())], dwell: 120)
        #expect(quiet == ["enter 0 dwell", "dwell 0 quiet"])
        // Entered 12:58 (in the window): the dwell fires at 13:01, after it, and notifies.
        let after = try run([F.fix(near, at: 3480), F.fix(near, at: 3660)], profiles: ["d1": .init(quietHours: Self.noon())], dwell: 120)
        #expect(after == ["enter 0 dwell", "dwell 0"])
    }
}
