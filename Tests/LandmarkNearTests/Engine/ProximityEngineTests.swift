import Foundation
import Testing

@_spi(Inlining) @testable import LandmarkNearCore
@testable import LandmarkNearEngine
@_spi(Inlining) @testable import LandmarkNearGeodesy

@Suite(.suiteTimeLimit) struct ProximityEngineTests {
    typealias F = EngineFixtures
    let radius = Length.fiveMiles.meters
    let hysteresis = Length.quarterMile.meters

    private func summaries(_ results: [(FixDisposition, [ProximityEvent])]) -> [[String]] {
        results.map { $0.1.map(\.summary) }
    }

    /// docs/reference/fixes.md: device names compare byte for byte; NFC and NFD spellings are two devices.
    @Test func devicesDifferingOnlyInNormalisationKeepTheirOwnState() throws {
        let results = try F.run([
            F.fix(F.point(100), device: "caf\u{E9}", at: 0),  // enter
            F.fix(F.point(200), device: "cafe\u{301}", at: 5),  // another device: its own enter
            F.fix(F.point(300), device: "caf\u{E9}", at: 3),  // later than its own latest (0): used
        ])
        #expect(summaries(results) == [["enter 0"], ["enter 0"], []])
        #expect(results.map(\.0) == [.used, .used, .used])
    }

    @Test func boundaryJitterAtTheRadius() throws {
        let results = try F.run([
            F.fix(F.point(radius + 0.5), at: 0),  // just outside: nothing
            F.fix(F.point(radius - 0.5), at: 10),  // just inside: enter
            F.fix(F.point(radius + 0.5), at: 20),  // jitter out, still within R + H: no exit
            F.fix(F.point(radius - 0.5), at: 30),  // jitter in again: no second enter
        ])
        #expect(summaries(results) == [[], ["enter 0"], [], []])
        #expect(results.allSatisfy { $0.0 == .used })
    }

    @Test func boundaryJitterAtRadiusPlusHysteresis() throws {
        let results = try F.run([
            F.fix(F.point(100), at: 0),
            F.fix(F.point(radius + hysteresis - 0.5), at: 10),  // not beyond R + H: stays inside
            F.fix(F.point(radius + hysteresis + 0.5), at: 20),  // beyond: exit
            F.fix(F.point(radius + hysteresis - 0.5), at: 30),  // outside R: nothing
            F.fix(F.point(radius - 0.5), at: 40),  // re-enter within the cooldown
        ]) { $0.cooldown = 3600 }
        #expect(summaries(results) == [["enter 0"], [], ["exit 0"], [], ["enter 0 cooldown"]])
    }

    @Test(arguments: [(Int64(3599), "enter 0 cooldown"), (3600, "enter 0"), (7200, "enter 0")])
    func reentryAndTheCooldown(secondEntryAfter seconds: Int64, expected: String) throws {
        let results = try F.run([
            F.fix(F.point(10), at: 0),
            F.fix(F.point(20_000), at: 1),
            F.fix(F.point(10), at: seconds),
        ])
        #expect(summaries(results) == [["enter 0"], ["exit 0"], [expected]])
    }

    @Test func suppressedEnterDoesNotRestartTheCooldown() throws {
        let results = try F.run([
            F.fix(F.point(10), at: 0),
            F.fix(F.point(20_000), at: 100),
            F.fix(F.point(10), at: 1800),  // suppressed: 1800 s after the notification
            F.fix(F.point(20_000), at: 1900),
            F.fix(F.point(10), at: 3600),  // 3600 s after the notification: notified
        ])
        #expect(summaries(results) == [["enter 0"], ["exit 0"], ["enter 0 cooldown"], ["exit 0"], ["enter 0"]])
    }

    @Test func zeroCooldownNeverSuppresses() throws {
        let results = try F.run([
            F.fix(F.point(10), at: 0), F.fix(F.point(20_000), at: 1), F.fix(F.point(10), at: 2),
        ]) { $0.cooldown = 0 }
        #expect(summaries(results) == [["enter 0"], ["exit 0"], ["enter 0"]])
    }

    @Test func staleAndDuplicateTimesAreDropped() throws {
        let results = try F.run([
            F.fix(F.point(20_000), at: 10),
            F.fix(F.point(10), at: 10),  // same time: stale
            F.fix(F.point(10), at: 5),  // older: stale
            F.fix(F.point(10)),  // no time: used in arrival order
            F.fix(F.point(10), at: 11),
        ])
        #expect(results.map(\.0) == [.used, .dropped(.stale), .dropped(.stale), .used, .used])
        #expect(summaries(results) == [[], [], [], ["enter 0"], []])
    }

    @Test func untimedFixesNeverSuppressByCooldown() throws {
        let results = try F.run([
            F.fix(F.point(10)), F.fix(F.point(20_000)), F.fix(F.point(10)),
            F.fix(F.point(20_000), at: 0), F.fix(F.point(10), at: 1),
        ])
        // The first notification has no time, so nothing is suppressed after it either.
        #expect(summaries(results) == [["enter 0"], ["exit 0"], ["enter 0"], ["exit 0"], ["enter 0"]])
    }

    @Test(arguments: [(Optional<Double>.none, true), (0, true), (-5, true), (999.9, true), (1000, true), (1000.1, false), (1e9, false)])
    func accuracyFilter(accuracy: Double?, used: Bool) throws {
        let results = try F.run([F.fix(F.point(10), at: 0, accuracy: accuracy)])
        #expect(results[0].0 == (used ? .used : .dropped(.accuracy)))
        #expect(summaries(results) == [used ? ["enter 0"] : []])
    }

    @Test func droppedFixDoesNotAdvanceTheDeviceClock() throws {
        let results = try F.run([
            F.fix(F.point(10), at: 100, accuracy: 5000),  // dropped for accuracy
            F.fix(F.point(10), at: 50),  // still usable: no used fix had a time yet
        ])
        #expect(results.map(\.0) == [.dropped(.accuracy), .used])
    }

    @Test func severalLandmarksOnOneFixAreOrderedByDistanceThenIndex() throws {
        let origin = Coordinate(latitude: 10, longitude: 20)
        let catalog = try F.catalog([
            (1, F.point(3000, from: origin, azimuth: 0)),
            (2, F.point(1000, from: origin, azimuth: 90)),
            (3, F.point(2000, from: origin, azimuth: 180)),
            (4, F.point(1000, from: origin, azimuth: 90)),  // same place as id 2: tie -> index order
        ])
        let results = try F.run([F.fix(origin, at: 0)], catalog: catalog)
        #expect(summaries(results) == [["enter 1", "enter 3", "enter 2", "enter 0"]])
        #expect(results[0].1.map(\.distance) == results[0].1.map(\.distance).sorted())
    }

    @Test func devicesAreIndependent() throws {
        let results = try F.run([
            F.fix(F.point(10), device: "a", at: 0),
            F.fix(F.point(10), device: "b", at: 0),
            F.fix(F.point(20_000), device: "a", at: 1),
            F.fix(F.point(10), device: "b", at: 2),
            F.fix(F.point(10), device: "a", at: 1),  // stale for a, even though b is at 2
        ])
        #expect(summaries(results) == [["enter 0"], ["enter 0"], ["exit 0"], [], []])
        #expect(results[4].0 == .dropped(.stale))
    }

    @Test func onlyFavouritesNotify() throws {
        // Silver Salmon Creek (index 1) is not a favourite of the embedded catalog.
        let salmon = LandmarkCatalog.embedded[1].coordinate
        let results = try F.run([F.fix(salmon, at: 0)])
        #expect(summaries(results) == [[]])
        let all = try F.run([F.fix(salmon, at: 0)]) { $0.favorites = .all }
        #expect(summaries(all) == [["enter 1"]])
        let chosen = try F.run([F.fix(salmon, at: 0), F.fix(F.point(10), at: 1)]) { $0.favorites = .ids([1002]) }
        #expect(summaries(chosen) == [["enter 1"], ["exit 1"]])
    }

    @Test func profilesSetFavouritesAndPreferences() throws {
        let salmon = LandmarkCatalog.embedded[1].coordinate
        let profiles = DeviceProfiles([
            "fisher": .init(favorites: [1002]),
            "quiet": .init(prefersNotifications: false),
        ])
        let results = try F.run([
            F.fix(salmon, device: "fisher", at: 0),
            F.fix(F.point(10), device: "fisher", at: 0),
            F.fix(F.point(10), device: "quiet", at: 0),
            F.fix(F.point(20_000), device: "quiet", at: 1),
            F.fix(F.point(10), device: "quiet", at: 2),
            F.fix(F.point(10), device: "other", at: 0),
        ]) { $0.profiles = profiles }
        #expect(summaries(results) == [["enter 1"], [], ["enter 0 profile"], ["exit 0"], ["enter 0 profile"], ["enter 0"]])
    }

    @Test func unknownFavouriteIdsAreRefused() {
        #expect(throws: EngineConfigurationError.self) {
            var configuration = EngineConfiguration()
            configuration.favorites = .ids([4242])
            _ = try ProximityEngine(catalog: .embedded, configuration: configuration)
        }
        #expect(throws: EngineConfigurationError.self) {
            var configuration = EngineConfiguration()
            configuration.profiles = DeviceProfiles(["x": .init(favorites: [1, 2])])
            _ = try ProximityEngine(catalog: .embedded, configuration: configuration)
        }
    }

    @Test(arguments: [
        (Coordinate(latitude: 10, longitude: 179.99), Coordinate(latitude: 10, longitude: -179.99)),
        (Coordinate(latitude: -40, longitude: -179.995), Coordinate(latitude: -40.01, longitude: 179.99)),
        (Coordinate(latitude: 90, longitude: 0), Coordinate(latitude: 89.97, longitude: 135)),
        (Coordinate(latitude: -89.99, longitude: 45), Coordinate(latitude: -89.99, longitude: -135)),
    ])
    func antimeridianAndPolarLandmarks(landmark: Coordinate, fix: Coordinate) throws {
        let catalog = try F.catalog([(7, landmark)])
        let distance = Geodesic.wgs84.distance(from: fix, to: landmark)
        #expect(distance < radius)
        let results = try F.run([F.fix(fix, at: 0)], catalog: catalog)
        #expect(summaries(results) == [["enter 0"]])
        #expect(abs(results[0].1[0].distance - distance) < 1e-6)
    }

    /// `distanceMeters` prints `geod_inverse`'s distance rounded to the millimetre, also where
    /// the engine took a short-line distance: fixes whose geodesic distance lies a few
    /// nanometres either side of a half millimetre (where a short-line distance could round
    /// the other way), at every latitude, with enters, exits and several enters on one fix.
    @Test(arguments: [-89.5, -45, 0, 33.7, 71, 89.9])
    func reportedDistancesPrintAsGeodInverse(latitude: Double) throws {
        var rng = SeededGenerator(seed: UInt64(bitPattern: Int64(latitude * 10)))
        let centre = Coordinate(latitude: latitude, longitude: 179.99)
        let twin = F.point(0.0004, from: centre, azimuth: 10)  // a second favourite 0.4 mm away
        var fixes: [Fix] = []
        for device in 0..<150 {
            let millimetres = Double(Int.random(in: 100_000...8_000_000, using: &rng)) + 0.5
            let offset = Double.random(in: -6e-9...6e-9, using: &rng)
            let azimuth = Double.random(in: -180...180, using: &rng)
            // In at a half millimetre, out past R + H at another, back in.
            let inside = F.point(millimetres / 1000 + offset, from: centre, azimuth: azimuth)
            let outside = F.point(radius + hysteresis + 1 + millimetres / 1e6 + offset, from: centre, azimuth: azimuth)
            for (step, point) in [inside, outside, inside].enumerated() {
                fixes.append(F.fix(point, device: "d\(device)", at: Int64(step * 7200)))
            }
        }
        var events = 0
        var several = 0
        // One favourite (an event a fix), then two (two events a fix, ordered by distance).
        for catalog in [try F.catalog([(1, centre)]), try F.catalog([(1, centre), (2, twin)])] {
            let results = try F.run(fixes, catalog: catalog, configure: { $0.cooldown = 0 })
            for (fix, result) in zip(fixes, results) {
                if result.1.count > 1 { several += 1 }
                for event in result.1 {
                    let exact = Geodesic.wgs84.distance(from: fix.coordinate, to: catalog[event.landmarkIndex].coordinate)
                    #expect(ReportedDistance.millimetres(event.distance) == ReportedDistance.millimetres(exact))
                    #expect(abs(event.distance - exact) <= 1e-6)
                    events += 1
                }
            }
        }
        #expect(events == 150 * 3 * 3)
        #expect(several == 150 * 3)
    }

    /// The candidate cache and the spherical bounds must never change a decision: compare
    /// with a reference that measures every favourite with the geodesic on every fix.
    @Test(arguments: [UInt64(1), 2, 3])
    func matchesABruteForceReference(seed: UInt64) throws {
        var rng = SeededGenerator(seed: seed)
        let centre = Coordinate(latitude: Double.random(in: -80...80, using: &rng), longitude: 179.9)
        var landmarks: [(Int, Coordinate)] = []
        for id in 1...40 {
            landmarks.append(
                (
                    id,
                    F.point(
                        Double.random(in: 0...60_000, using: &rng), from: centre,
                        azimuth: Double.random(in: -180...180, using: &rng))
                ))
        }
        let catalog = try F.catalog(landmarks)
        var fixes: [Fix] = []
        var positions = (0..<3).map { _ in centre }
        for step in 0..<1500 {
            let device = step % 3
            positions[device] = F.point(
                Double.random(in: 0...600, using: &rng), from: positions[device],
                azimuth: Double.random(in: -180...180, using: &rng))
            if Geodesic.wgs84.distance(from: positions[device], to: centre) > 70_000 { positions[device] = centre }
            fixes.append(F.fix(positions[device], device: "dev\(device)", at: Int64(step / 3 * 60)))
        }
        let configure: (inout EngineConfiguration) -> Void = { $0.cooldown = 1800 }
        let actual = try F.run(fixes, catalog: catalog, configure: configure)
        let expected = ReferenceEngine(catalog: catalog, radius: radius, hysteresis: hysteresis, cooldown: 1800).run(fixes)
        #expect(actual.map { $0.1.map(\.summary) } == expected)
        #expect(actual.flatMap(\.1).count > 20)
    }

    /// The quiet disc (fixes near the last looked-at one skip the per-favourite tests) must
    /// never hide an event: devices creeping in small steps (so that most fixes fall in a disc)
    /// among many favourites, some crossing R and R + H back and forth, against the reference.
    @Test(arguments: [UInt64(4), 5, 6])
    func quietDiscsHideNoEvent(seed: UInt64) throws {
        var rng = SeededGenerator(seed: seed)
        let centre = Coordinate(latitude: Double.random(in: -70...70, using: &rng), longitude: Double.random(in: -180...180, using: &rng))
        var landmarks: [(Int, Coordinate)] = []
        for id in 1...120 {
            landmarks.append(
                (
                    id,
                    F.point(
                        Double.random(in: 0...25_000, using: &rng), from: centre,
                        azimuth: Double.random(in: -180...180, using: &rng))
                ))
        }
        let catalog = try F.catalog(landmarks)
        var fixes: [Fix] = []
        var positions = (0..<4).map { _ in centre }
        var headings = (0..<4).map { _ in Double.random(in: -180...180, using: &rng) }
        for step in 0..<6000 {
            let device = step % 4
            // Mostly forward in small steps, sometimes back (to re-cross a boundary).
            headings[device] += Double.random(in: -20...20, using: &rng) + (step % 97 == 0 ? 180 : 0)
            positions[device] = F.point(
                Double.random(in: 0...40, using: &rng), from: positions[device], azimuth: headings[device])
            if Geodesic.wgs84.distance(from: positions[device], to: centre) > 30_000 { positions[device] = centre }
            fixes.append(F.fix(positions[device], device: "dev\(device)", at: Int64(step / 4 * 10)))
        }
        let configure: (inout EngineConfiguration) -> Void = { $0.cooldown = 0 }
        let actual = try F.run(fixes, catalog: catalog, configure: configure)
        let expected = ReferenceEngine(catalog: catalog, radius: radius, hysteresis: hysteresis, cooldown: 0).run(fixes)
        #expect(actual.map { $0.1.map(\.summary) } == expected)
        #expect(actual.flatMap(\.1).count > 40)
    }
}

/// The candidate grid's edges: around a pole, across the antimeridian, and radii whose
/// reach spans too many cells (the always-checked list), against the brute-force reference.
@Suite(.suiteTimeLimit)
struct FavoriteGridEdgeTests {
    typealias F = EngineFixtures

    struct Case: Sendable, CustomTestStringConvertible {
        var latitude: Double
        var longitude: Double
        var radius: Double
        var spread: Double
        var testDescription: String { "centre \(latitude),\(longitude), radius \(radius) m" }
    }

    @Test(arguments: [
        Case(latitude: 89.97, longitude: 10, radius: 8046.72, spread: 40_000),
        Case(latitude: -89.9, longitude: -179.95, radius: 8046.72, spread: 40_000),
        Case(latitude: 0.001, longitude: 179.999, radius: 8046.72, spread: 40_000),
        Case(latitude: 60, longitude: -30, radius: 300_000, spread: 1_500_000),
    ])
    func matchesTheReference(_ test: Case) throws {
        var rng = IndexTestSupport.SeededGenerator(seed: 17)
        let centre = Coordinate(latitude: test.latitude, longitude: test.longitude)
        var landmarks: [(Int, Coordinate)] = []
        for id in 1...30 {
            landmarks.append(
                (
                    id,
                    F.point(
                        Double.random(in: 0...test.spread, using: &rng), from: centre,
                        azimuth: Double.random(in: -180...180, using: &rng))
                ))
        }
        let catalog = try F.catalog(landmarks)
        var fixes: [Fix] = []
        var positions = (0..<3).map { _ in centre }
        let step = test.spread / 60
        for index in 0..<1200 {
            let device = index % 3
            positions[device] = F.point(
                Double.random(in: 0...step, using: &rng), from: positions[device],
                azimuth: Double.random(in: -180...180, using: &rng))
            if Geodesic.wgs84.distance(from: positions[device], to: centre) > test.spread * 1.2 { positions[device] = centre }
            fixes.append(F.fix(positions[device], device: "dev\(device)", at: Int64(index / 3 * 60)))
        }
        let actual = try F.run(fixes, catalog: catalog) {
            $0.cooldown = 1800; $0.radius = test.radius
        }
        let expected = ReferenceEngine(
            catalog: catalog, radius: test.radius, hysteresis: Length.quarterMile.meters,
            cooldown: 1800
        ).run(fixes)
        #expect(actual.map { $0.1.map(\.summary) } == expected)
        #expect(actual.flatMap(\.1).count > 10)
    }
}

/// A deliberately simple implementation of docs/reference/engine.md: every favourite, every fix, exact
/// geodesic distances. Used only to check the engine's shortcuts.
struct ReferenceEngine {
    let catalog: LandmarkCatalog
    let radius: Double
    let hysteresis: Double
    let cooldown: Double

    func run(_ fixes: [Fix]) -> [[String]] {
        var inside: [String: Set<Int>] = [:]
        var notified: [String: [Int: Timestamp]] = [:]
        var latest: [String: Timestamp] = [:]
        return fixes.map { fix in
            if let time = fix.time {
                if let last = latest[fix.device], time <= last { return [] }
                latest[fix.device] = time
            }
            var events: [(Double, Int, String)] = []
            for index in catalog.favoriteIndices {
                let distance = Geodesic.wgs84.distance(from: fix.coordinate, to: catalog[index].coordinate)
                if inside[fix.device, default: []].contains(index) {
                    if distance > radius + hysteresis {
                        inside[fix.device]!.remove(index)
                        events.append((distance, index, "exit \(index)"))
                    }
                } else if distance <= radius {
                    inside[fix.device, default: []].insert(index)
                    if let last = notified[fix.device]?[index], let time = fix.time, time.interval(since: last) < cooldown {
                        events.append((distance, index, "enter \(index) cooldown"))
                    } else {
                        notified[fix.device, default: [:]][index] = fix.time
                        events.append((distance, index, "enter \(index)"))
                    }
                }
            }
            return events.sorted { ($0.0, $0.1) < ($1.0, $1.1) }.map(\.2)
        }
    }
}

typealias SeededGenerator = IndexTestSupport.SeededGenerator

@Suite(.suiteTimeLimit) struct CacheBoundTests {
    /// The trigonometry-free bound must never be below the geodesic distance, anywhere.
    @Test(arguments: [UInt64(11), 12])
    func neverUnderestimates(seed: UInt64) {
        var rng = SeededGenerator(seed: seed)
        for _ in 0..<5_000 {
            let center = Coordinate(
                latitude: Double.random(in: -90...90, using: &rng),
                longitude: Double.random(in: -180...180, using: &rng))
            let other = Geodesic.wgs84.destination(
                from: center, azimuth: Double.random(in: -180...180, using: &rng),
                distance: Double.random(in: 0...20_000, using: &rng))
            let bound = CacheBound.distanceUpperBound(
                from: other, to: center,
                cosineOfCenterLatitude: cos(center.latitude * .pi / 180))
            #expect(bound >= Geodesic.wgs84.distance(from: other, to: center))
        }
    }
}
