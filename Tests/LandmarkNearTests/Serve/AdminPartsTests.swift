import Foundation
import Testing

@testable import LandmarkNearCore
@testable import LandmarkNearEngine
@testable import LandmarkNearReaders
@testable import LandmarkNearServer
@testable import LandmarkNearSessions

/// The parts behind `serve`'s admin endpoints on their own: routes, admin users, one Feature
/// read as a catalog entry, and the overlay of changes over a catalog (indexes never shift,
/// empty positions match nothing).
@Suite("serve: admin parts", .suiteTimeLimit)
struct AdminPartsTests {
    @Test func routes() {
        #expect(AdminRoute(path: "/landmarks") == .landmarks)
        #expect(AdminRoute(path: "/landmarks/1001") == .landmark(1001))
        #expect(AdminRoute(path: "/landmarks/-5") == .landmark(-5))
        #expect(AdminRoute(path: "/landmarks/x") == .landmark(nil))
        #expect(AdminRoute(path: "/landmarks/1001/inside") == .landmarkInside(1001))
        // libmicrohttpd hands the path decoded: everything after the prefix is the device.
        #expect(AdminRoute(path: "/profiles/alice/phone") == .profile("alice/phone"))
        #expect(AdminRoute(path: "/devices/a b") == .device("a b"))
        #expect(AdminRoute(path: "/profiles/") == nil)
        #expect(AdminRoute(path: "/fixes") == nil)
    }

    @Test func adminUsers() throws {
        let users = try ServerUsers.parse(
            Array(#"{"ops": {"password": "$y$x", "admin": true}, "alice": {"password": "$y$y", "devices": ["phone"]}}"#.utf8),
            source: "users.json")
        #expect(users["ops"]?.isAdmin == true && users["ops"]?.devices == [])
        #expect(users["alice"]?.isAdmin == false)
        #expect(throws: ServerError.self) {
            try ServerUsers.parse(Array(#"{"ops": {"password": "$y$x", "admin": "yes"}}"#.utf8), source: "u")
        }
        #expect(throws: ServerError.self) { try ServerUsers.parse(Array(#"{"ops": {"password": "$y$x"}}"#.utf8), source: "u") }
    }

    @Test func oneFeatureReadsAsACatalogEntry() throws {
        let body =
            #"{"type":"Feature","geometry":{"type":"Point","coordinates":[13.4,52.5]},"properties":{"name":"B","radius":"2km","x":[1]}}"#
        let read = try LandmarkFeature.read(Array(body.utf8), id: 5001, source: "landmark 5001")
        #expect(read.landmark.id == 5001 && read.landmark.name == "B" && read.landmark.radius?.meters == 2000)
        #expect(JSONWriter.serialize(read.feature).contains(#""properties":{"id":5001,"name":"B","radius":"2km","x":[1]}"#))
        // A Polygon keeps its place; a bad one is refused with GEOS's reason.
        let polygon =
            #"{"type":"Feature","geometry":{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,1],[0,0]]]},"properties":{"name":"Sq"}}"#
        #expect(try LandmarkFeature.read(Array(polygon.utf8), id: 1, source: "l").landmark.shape?.kind == .polygon)
        let bowtie =
            #"{"type":"Feature","geometry":{"type":"Polygon","coordinates":[[[0,0],[1,1],[1,0],[0,1],[0,0]]]},"properties":{"name":"Bow"}}"#
        do {
            _ = try LandmarkFeature.read(Array(bowtie.utf8), id: 1, source: "landmark 1")
            Issue.record("a self-intersecting ring was accepted")
        } catch {
            let reasons = LandmarkFeature.reasons(of: error)
            #expect(reasons.count == 1 && reasons[0].hasPrefix("landmark 1: "), "\(reasons)")
        }
    }

    @Test func theOverlayKeepsIndexesAndEmptiesDeletedPositions() throws {
        let base = LandmarkCatalog.embedded
        var overlay = CatalogOverlay()
        let added = Landmark(id: 5001, name: "Boathouse", coordinate: Coordinate(latitude: 52.5, longitude: 13.4), isFavorite: true)
        overlay.set(5001, .init(position: 12, landmark: added))
        overlay.set(
            5002, .init(position: 13, landmark: Landmark(id: 5002, name: "Pier", coordinate: Coordinate(latitude: 1, longitude: 1))))
        overlay.set(1003, .init(position: 2))
        overlay.set(5002, .init(position: 13))
        let catalog = try overlay.catalog(over: base)
        #expect(catalog.count == 14)
        #expect(catalog.index(ofID: 5001) == 12 && catalog.index(ofID: 1003) == 2 && catalog.index(ofID: 1004) == 3)
        #expect(catalog.isVacant(at: 2) && catalog.isVacant(at: 13) && !catalog.isVacant(at: 12))
        #expect(catalog.favoriteIndices == [0, 3, 12])
        // Applied again over the catalog in force, nothing moves (SIGHUP without --landmarks).
        #expect(try overlay.catalog(over: catalog).landmarks == catalog.landmarks)
        // `all` and named favourites skip empty positions instead of failing.
        #expect(try FavoriteSelection.all.indices(in: catalog).count == 12)
        #expect(try FavoriteSelection.ids([1003, 1001]).indices(in: catalog) == [0])
        var configuration = EngineConfiguration()
        configuration.profiles = DeviceProfiles(["d": .init(favorites: [1003, 5001])])
        let engine = try ProximityEngine(catalog: catalog, configuration: configuration)
        #expect(engine.favoriteIndices == [0, 3, 12])
    }

    /// A profile from a `--profiles` file, shown by `GET /profiles/DEVICE`, keeps its quiet hours.
    @Test func aFileProfileShowsItsQuietHours() throws {
        let profiles = try ProfilesFile.parse(
            Array(#"{"d":{"favorites":[1001],"quietHours":{"from":"22:00","to":"07:00","timeZone":"Europe/Berlin"}}}"#.utf8),
            source: "p.json")
        let profile = try #require(profiles["d"])
        let shown = JSONWriter.serialize(ProfileObject.object(of: profile))
        #expect(shown.contains(#""quietHours":{"from":"22:00","to":"07:00","timeZone":"Europe/Berlin"}"#), "\(shown)")
    }
}
