import Testing

@_spi(Inlining) @testable import LandmarkNearCore
@testable import LandmarkNearEngine
@testable import LandmarkNearReaders

@Suite(.suiteTimeLimit) struct DeviceProfilesTests {
    @Test func readsFavouritesAndPreference() throws {
        let profiles = try ProfilesFile.parse(
            Array(
                #"""
                {"d1": {"favorites": [1002, 1003.0], "prefersNotifications": false},
                 "d2": {}, "d3": {"favorites": null}}
                """#.utf8), source: "p.json")
        #expect(profiles["d1"] == .init(favorites: [1002, 1003], prefersNotifications: false))
        #expect(profiles["d2"] == .init())
        #expect(profiles["d3"]?.favorites == nil)
        #expect(profiles["nobody"] == nil)
        #expect(profiles.warnings.isEmpty)
    }

    @Test func unknownKeysAreWarnedWithTheClosestKnownKey() throws {
        let profiles = try ProfilesFile.parse(Array(#"{"d1": {"favourites": [1002]}, "d2": {"colour": "red"}}"#.utf8), source: "p.json")
        #expect(profiles["d1"]?.favorites == nil, "an unknown key is ignored")
        #expect(profiles.warnings.count == 2)
        #expect(
            profiles.warnings.first?.hasPrefix(#"p.json: device "d1": unknown key "favourites" ignored (did you mean "favorites"?)"#)
                == true)
        #expect(profiles.warnings.last?.contains("did you mean") == false)
    }

    @Test(arguments: [
        (#"[1,2]"#, "must be a JSON object"),
        (#"{"d": 3}"#, #"device "d": profile must be an object"#),
        (#"{"d": {"favorites": "1001"}}"#, "favorites must be an array"),
        (#"{"d": {"favorites": [1.5]}}"#, "integer landmark ids"),
        (#"{"d": {"prefersNotifications": "no"}}"#, "must be true or false"),
        (#"{"d": "#, "invalid JSON"),
    ])
    func rejects(text: String, reason: String) {
        #expect {
            _ = try ProfilesFile.parse(Array(text.utf8), source: "p.json")
        } throws: { error in
            let description = (error as? ProfilesError)?.description ?? ""
            return description.hasPrefix("p.json: ") && description.contains(reason)
        }
    }
}

@Suite(.suiteTimeLimit) struct FavoriteSelectionTests {
    @Test func parsesAndResolves() throws {
        #expect(try FavoriteSelection(parsing: "all") == .all)
        #expect(try FavoriteSelection(parsing: "1001, 1003") == .ids([1001, 1003]))
        #expect(try FavoriteSelection(parsing: "1003,1001").indices(in: .embedded) == [0, 2])
        #expect(try FavoriteSelection.catalogFlags.indices(in: .embedded) == [0, 2, 3])
        #expect(throws: UnitParseError.self) { _ = try FavoriteSelection(parsing: "1001,x") }
        #expect(throws: EngineConfigurationError.self) { _ = try FavoriteSelection.ids([1]).indices(in: .embedded) }
    }
}
