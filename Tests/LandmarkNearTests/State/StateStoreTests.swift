import Foundation
import Testing

@_spi(Inlining) @testable import LandmarkNearCore
@testable import LandmarkNearEngine
@testable import LandmarkNearOutputs
@testable import LandmarkNearReaders
@testable import LandmarkNearServer

/// The `--state` database on its own: what is committed reads back exactly, undone
/// notifications are the decided ones, and files that are not usable say why.
@Suite(.suiteTimeLimit)
struct StateStoreTests {
    static func record(_ id: Int64, device: String = "caf\u{E9}") -> NotificationRecord {
        NotificationRecord(
            id: id, device: device, landmarkID: 1002, landmarkIndex: 1, landmarkName: "Silver Salmon Creek",
            fixTime: Timestamp(seconds: 1_777_636_802, nanoseconds: 250_000_000), fixNumber: 7,
            coordinate: Coordinate(latitude: 59.98, longitude: -152.66), distance: 1234.5,
            payload: #"{"aps":{}}"#, line: #"{"event":"enter"}"#, apnsFileName: "x-1002-20260501T120002.25Z.apns")
    }

    @Test func devicesAndNotificationsReadBackExactly() throws {
        let directory = try makeTemporaryDirectory("store")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("s.db").path
        let device = DeviceSnapshot(
            device: "cafe\u{301}", latestTime: Timestamp(seconds: -5, nanoseconds: 999_999_999), fixCount: 3,
            favorites: [
                FavoriteSnapshot(
                    landmarkID: 1001, isInside: true, isNotified: true,
                    notifiedTime: Timestamp(seconds: 10)),
                FavoriteSnapshot(landmarkID: 1004, isInside: false, isNotified: true),
            ])
        do {
            let store = try StateStore(path: path)
            #expect(store.nextNotificationID == 1)
            let first = store.takeNotificationID()
            let second = store.takeNotificationID()
            try store.commit(changes: [device, DeviceSnapshot(device: "")], decided: [Self.record(first), Self.record(second)], done: [])
            try store.markDone([first])
        }
        let store = try StateStore(path: path)
        #expect(store.nextNotificationID == 3)
        let loaded = try store.loadDevices().sorted { $0.device < $1.device }
        #expect(loaded.map(\.device) == ["", "cafe\u{301}"])
        var expected = device
        expected.favorites.sort { $0.landmarkID < $1.landmarkID }
        var found = loaded[1]
        found.favorites.sort { $0.landmarkID < $1.landmarkID }
        #expect(found == expected)
        #expect(try store.undoneNotifications() == [Self.record(2)])
    }

    /// The NMEA reader's latest RMC date: saved with a commit, replaced by a later one, read
    /// back by the next store on the file, removed by nil.
    @Test func nmeaDatesReadBackAndAreReplaced() throws {
        let directory = try makeTemporaryDirectory("store-nmea")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("s.db").path
        do {
            let store = try StateStore(path: path)
            #expect(try store.loadNMEADates().isEmpty)
            try store.commit(changes: [], decided: [], done: [], nmeaDates: ["default": Timestamp(seconds: 1_777_636_800)])
            try store.commit(changes: [], decided: [], done: [], nmeaDates: ["default": Timestamp(seconds: 1_777_723_205)])
        }
        let store = try StateStore(path: path)
        #expect(try store.loadNMEADates() == ["default": Timestamp(seconds: 1_777_723_205)])
        try store.commit(changes: [], decided: [], done: [], nmeaDates: ["default": nil])
        #expect(try store.loadNMEADates().isEmpty)
    }

    /// The decoder's date round-trips through seconds, before the epoch too.
    @Test(arguments: [Int64(1_777_723_205), 0, -1, -86_400, -86_401])
    func nmeaDecoderDateRoundTrips(_ seconds: Int64) {
        let decoder = NMEALineDecoder()
        decoder.latestRMCTime = Timestamp(seconds: seconds)
        #expect(decoder.latestRMCTime == Timestamp(seconds: seconds))
    }

    @Test func aSecondStoreOnTheSameFileIsATemporaryFailure() throws {
        let directory = try makeTemporaryDirectory("store-lock")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("s.db").path
        let holder = try StateStore(path: path)
        #expect(throws: StateError.self) { _ = try StateStore(path: path) }
        do {
            _ = try StateStore(path: path)
        } catch {
            #expect(error.kind == .temporaryFailure)
            #expect(error.description.contains("pid \(getpid())"))
        }
        withExtendedLifetime(holder) {}
    }

    /// Another spelling of the same file is the same file: a link to it, a link to its
    /// directory, a path through `..`.
    @Test(arguments: ["link.db", "linked-directory/s.db", "sub/../s.db"])
    func aSecondStoreThroughAnotherPathIsRefusedToo(_ spelling: String) throws {
        let directory = try makeTemporaryDirectory("store-lock-alias")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("s.db").path
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("sub"), withIntermediateDirectories: true)
        let holder = try StateStore(path: path)
        try FileManager.default.createSymbolicLink(atPath: directory.appendingPathComponent("link.db").path, withDestinationPath: path)
        try FileManager.default.createSymbolicLink(
            atPath: directory.appendingPathComponent("linked-directory").path,
            withDestinationPath: directory.path)
        do {
            _ = try StateStore(path: directory.appendingPathComponent(spelling).path)
            Issue.record("a second store opened \(spelling) while \(path) was held")
        } catch {
            #expect(error.kind == .temporaryFailure, "\(error)")
        }
        withExtendedLifetime(holder) {}
    }

    @Test(arguments: ["not a database, just text", ""])
    func aFileThatIsNotAStateDatabaseIsBadData(_ content: String) throws {
        let directory = try makeTemporaryDirectory("store-bad")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("s.db").path
        try Data(String(repeating: content, count: 200).utf8).write(to: URL(fileURLWithPath: path))
        if content.isEmpty {
            // An empty file is a new database.
            #expect(try StateStore(path: path).nextNotificationID == 1)
        } else {
            do {
                _ = try StateStore(path: path)
                Issue.record("opened a text file as a state database")
            } catch {
                #expect(error.kind == .badData, "\(error)")
            }
        }
    }
}
