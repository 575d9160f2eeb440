import Foundation
import Testing

@_spi(Inlining) @testable import LandmarkNearCore
@testable import LandmarkNearEngine
@_spi(Inlining) @testable import LandmarkNearGeodesy

/// The motion rules of the engine: passes between two fixes (`--crossing`) against a
/// brute-force geodesic reference, dwells (`--dwell`), and the accuracy policies.
@Suite(.suiteTimeLimit) struct MotionRulesTests {
    typealias F = EngineFixtures

    // MARK: crossing

    /// Random passes anywhere on the globe (across ±180°, near the poles, at the equator): an
    /// `enter` with `via: crossing` comes exactly when the geodesic between the fixes comes
    /// within the radius while both fixes are beyond it, at the reference's least distance
    /// (within 1 mm) and the time interpolated there (within 1 ms).
    @Test(arguments: [
        (seed: 1 as UInt64, latitude: 0.0, longitude: 0.0),
        (2, 60, 179.9), (3, -70, -179.95), (4, 86, 45), (5, -88.5, 120), (6, 34, -116),
    ])
    func passesMatchTheBruteForceReference(seed: UInt64, latitude: Double, longitude: Double) throws {
        var random = SplitMix64(seed: seed)
        let radius = 2_000.0
        let center = Coordinate(latitude: latitude, longitude: longitude)
        var checked = 0
        var passes = 0
        for _ in 0..<24 {
            let landmark = F.point(
                Double.random(in: 0..<1, using: &random) * 3_000, from: center, azimuth: Double.random(in: 0..<1, using: &random) * 360)
            // A segment of 4–40 km whose middle lies near the landmark.
            let length = 4_000 + Double.random(in: 0..<1, using: &random) * 36_000
            let heading = Double.random(in: 0..<1, using: &random) * 360
            let middle = F.point(
                Double.random(in: 0..<1, using: &random) * 3_500, from: landmark, azimuth: Double.random(in: 0..<1, using: &random) * 360)
            let start = F.point(length / 2, from: middle, azimuth: heading + 180)
            let end = F.point(length / 2, from: middle, azimuth: heading)
            let catalog = try F.catalog([(1, landmark)])
            let results = try F.run(
                [F.fix(start, at: 0), F.fix(end, at: 600)], catalog: catalog,
                configure: {
                    $0.radius = radius
                    $0.crossingGap = 600
                })
            let reference = GeodesyReference.nearest(from: landmark, edges: [(start, end)])
            let d0 = Geodesic.wgs84.distance(from: start, to: landmark)
            let d1 = Geodesic.wgs84.distance(from: end, to: landmark)
            // Too near the boundary to call either way at the reference's precision.
            if abs(reference.distance - radius) < 0.01 || abs(d0 - radius) < 0.01 || abs(d1 - radius) < 0.01 { continue }
            checked += 1
            let crossing = results[1].1.first { $0.via == .crossing }
            let expected = d0 > radius && d1 > radius && reference.distance <= radius
            #expect((crossing != nil) == expected, "seed \(seed): reference \(reference.distance) m, ends \(d0) \(d1)")
            guard let crossing, expected else { continue }
            passes += 1
            #expect(abs(crossing.distance - reference.distance) <= 0.001)
            let fraction = reference.along / Geodesic.wgs84.distance(from: start, to: end)
            let expectedMilliseconds = (600_000 * fraction).rounded()
            let time = try #require(crossing.time)
            let milliseconds = Double(time.seconds - F.time(0).seconds) * 1000 + Double(time.nanoseconds) / 1e6
            #expect(abs(milliseconds - expectedMilliseconds) <= 1, "time \(milliseconds) ms, expected \(expectedMilliseconds)")
            let point = try #require(crossing.point)
            #expect(abs(Geodesic.wgs84.distance(from: point, to: landmark) - crossing.distance) <= 0.001)
        }
        #expect(checked >= 20)
        #expect(passes >= 3, "the seed should give some passes")
    }

    /// A pair of fixes exactly `--crossing` apart is searched; one a millisecond more is not;
    /// an untimed fix between two timed ones breaks the pair.
    @Test func theGapIsInclusiveAndAnUntimedFixBreaksThePair() throws {
        let start = F.point(5_000, azimuth: 270)
        let end = F.point(5_000, azimuth: 90)
        let configure: (inout EngineConfiguration) -> Void = {
            $0.radius = 1_000
            $0.crossingGap = 300
        }
        let exact = try F.run([F.fix(start, at: 0), F.fix(end, at: 300)], configure: configure)
        #expect(exact[1].1.contains { $0.via == .crossing })
        let over = try F.run(
            [
                F.fix(start, at: 0),
                Fix(device: "d1", coordinate: end, time: Timestamp(seconds: F.time(300).seconds, nanoseconds: 1_000_000)),
            ],
            configure: configure)
        #expect(!over[1].1.contains { $0.via == .crossing })
        let broken = try F.run(
            [F.fix(start, at: 0), F.fix(F.point(20_000, azimuth: 0)), F.fix(end, at: 200)], configure: configure)
        #expect(!broken[2].1.contains { $0.via == .crossing })
    }

    /// One step past two landmarks: both crossings, in the order of their times; the later
    /// fix's own events follow (here its exits: both are beyond radius + hysteresis).
    @Test func twoPassesOnOneStepComeInTimeOrderBeforeTheFixsOwnEvents() throws {
        let a = F.point(10_000, azimuth: 270)
        let b = F.point(10_000, azimuth: 90)
        let catalog = try F.catalog([(1, b), (2, a)])
        let results = try F.run(
            [F.fix(F.point(20_000, azimuth: 270), at: 0), F.fix(F.point(20_000, azimuth: 90), at: 400)], catalog: catalog,
            configure: {
                $0.radius = 1_000
                $0.crossingGap = 600
            })
        let events = results[1].1
        #expect(events.map(\.kind) == [.enter, .enter, .exit, .exit])
        #expect(events[0].landmarkIndex == 1 && events[1].landmarkIndex == 0)
        #expect(try #require(events[0].time) < (try #require(events[1].time)))
        #expect(events.prefix(2).allSatisfy { $0.isNotification && $0.via == .crossing })
    }

    // MARK: dwell

    @Test func aDwellFiresOnTheFirstFixAtLeastTheDwellAfterTheEnter() throws {
        let inside = F.point(2_000)
        let results = try F.run(
            [F.fix(F.point(20_000), at: 0), F.fix(inside, at: 60), F.fix(inside, at: 150), F.fix(inside, at: 180), F.fix(inside, at: 400)],
            configure: { $0.dwell = 120 })
        #expect(results[1].1.map(\.kind) == [.enter])
        #expect(results[1].1[0].suppression == .dwell)
        #expect(results[2].1.isEmpty)
        let dwell = try #require(results[3].1.first)
        #expect(dwell.kind == .dwell && dwell.isNotification)
        #expect(dwell.enteredAt == F.time(60))
        #expect(results[4].1.isEmpty, "a dwell fires once")
    }

    /// Jitter between the radius and radius + hysteresis keeps the device inside (the dwell
    /// goes on); an exit before the dwell cancels it; an untimed enter never dwells.
    @Test func jitterKeepsTheDwellAnExitCancelsItAnUntimedEnterNeverDwells() throws {
        let configure: (inout EngineConfiguration) -> Void = { $0.dwell = 120 }
        let radius = EngineConfiguration().radius
        let jitter = try F.run(
            [F.fix(F.point(2_000), at: 0), F.fix(F.point(radius + 200), at: 60), F.fix(F.point(radius - 50), at: 130)],
            configure: configure)
        #expect(jitter[2].1.map(\.kind) == [.dwell])
        let left = try F.run(
            [F.fix(F.point(2_000), at: 0), F.fix(F.point(radius + 1_000), at: 60), F.fix(F.point(2_000), at: 130)],
            configure: configure)
        #expect(left[1].1.map(\.kind) == [.exit])
        #expect(left[2].1.map(\.kind) == [.enter], "a new enter, a new dwell: nothing fires yet")
        let untimed = try F.run([F.fix(F.point(2_000)), F.fix(F.point(1_000)), F.fix(F.point(500))], configure: configure)
        #expect(untimed.flatMap(\.1).map(\.kind) == [.enter])
        #expect(untimed[0].1.first?.suppression == .dwell)
    }

    /// The cooldown is applied at the dwell, by its time, and a notified dwell starts it.
    @Test func theCooldownAppliesAtTheDwell() throws {
        let radius = EngineConfiguration().radius
        let results = try F.run(
            [
                F.fix(F.point(2_000), at: 0), F.fix(F.point(2_000), at: 120),
                F.fix(F.point(radius + 1_000), at: 200), F.fix(F.point(2_000), at: 300), F.fix(F.point(2_000), at: 420),
            ],
            configure: {
                $0.dwell = 120
                $0.cooldown = 3600
            })
        #expect(results[1].1.first?.isNotification == true)
        let second = try #require(results[4].1.first)
        #expect(second.kind == .dwell && second.suppression == .cooldown)
    }

    // MARK: accuracy

    @Test(arguments: [
        (AccuracyPolicy.center, [true, false, false]), (.sure, [false, false, false]), (.possible, [true, false, false]),
    ])
    func policiesDecideWithTheUncertaintyCircle(_ policy: AccuracyPolicy, _ enters: [Bool]) throws {
        let radius = EngineConfiguration().radius
        // 300 m inside with 500 m accuracy: center and possible enter, sure does not.
        let results = try F.run(
            [F.fix(F.point(radius - 300), at: 0, accuracy: 500), F.fix(F.point(radius - 100), at: 60, accuracy: 500)],
            configure: { $0.accuracyPolicy = policy })
        #expect(results.map { $0.1.contains { $0.kind == .enter } } == Array(enters.prefix(2)))
    }

    @Test func possibleEntersWithinTheAccuracyBeyondTheRadiusAndExitsOnlyWhenSurelyOut() throws {
        let radius = EngineConfiguration().radius
        let hysteresis = EngineConfiguration().hysteresis
        let results = try F.run(
            [
                F.fix(F.point(radius + 400), at: 0, accuracy: 500),  // possibly within: enter
                F.fix(F.point(radius + hysteresis + 300), at: 60, accuracy: 500),  // possibly still within R + H: stay
                F.fix(F.point(radius + hysteresis + 600), at: 120, accuracy: 500),  // surely beyond: exit
            ],
            configure: { $0.accuracyPolicy = .possible })
        #expect(results.map { $0.1.map(\.kind) } == [[.enter], [], [.exit]])
        #expect(abs(results[0].1[0].distance - (radius + 400)) < 0.01, "the distance stays the fix's own")
    }
}
