import Foundation
import Testing

@_spi(Inlining) @testable import LandmarkNearCore
@testable import LandmarkNearOutputs

@Suite(.suiteTimeLimit) struct PayloadBuilderTests {
    static let tutorialNames: [(index: Int, name: String)] = [
        (0, "Turtle Rock"), (1, "Silver Salmon Creek"), (2, "Chilkoot Trail"), (3, "St. Mary Lake"),
        (4, "Twin Lake"), (5, "Lake McDonald"), (6, "Charley Rivers"), (7, "Icy Bay"),
        (8, "Rainbow Lake"), (9, "Hidden Lake"), (10, "Chincoteague"), (11, "Lake Umbagog"),
    ]

    @Test func theSpecSampleByteForByte() {
        let payload = APNsPayload.json(for: LandmarkCatalog.embedded[1], index: 1, options: PayloadOptions())
        #expect(
            payload
                == #"{"aps":{"alert":{"title":"Silver Salmon Creek","body":"You are within 5 miles of Silver Salmon Creek."},"category":"LandmarkNear","thread-id":"5280"},"landmarkIndex":1}"#
        )
    }

    @Test(arguments: tutorialNames)
    func everyEmbeddedLandmarkByteForByte(index: Int, name: String) {
        let catalog = LandmarkCatalog.embedded
        let expected =
            #"{"aps":{"alert":{"title":""# + name + #"","body":"You are within 5 miles of "# + name
            + #"."},"category":"LandmarkNear","thread-id":"5280"},"landmarkIndex":"# + String(index) + "}"
        #expect(APNsPayload.json(for: catalog[index], index: index, options: PayloadOptions()) == expected)
        var cache = PayloadCache(options: PayloadOptions())
        #expect(cache.json(for: catalog[index], index: index) == expected)
        #expect(cache.json(for: catalog[index], index: index) == expected)
        var byIndex = PayloadCache(options: PayloadOptions())
        #expect(byIndex.json(forLandmarkAt: index, named: catalog.name(at: index), radius: catalog.radius(at: index)) == expected)
    }

    @Test(arguments: [
        ("5mi", "5 miles"), ("1mi", "1 mile"), ("2.5mi", "2.5 miles"), ("5.0mi", "5 miles"), ("8km", "8 km"),
        ("500m", "500 m"), ("1000ft", "1000 feet"), ("1ft", "1 foot"), ("1.0mi", "1 mile"), ("0.5km", "0.5 km"),
    ])
    func radiusPhrase(radius: String, phrase: String) throws {
        let options = PayloadOptions(radius: try Length(parsing: radius))
        #expect(options.radius.phrase == phrase)
        let payload = APNsPayload.json(for: LandmarkCatalog.embedded[1], index: 1, options: options)
        #expect(
            payload == #"{"aps":{"alert":{"title":"Silver Salmon Creek","body":"You are within "# + phrase
                + #" of Silver Salmon Creek."},"category":"LandmarkNear","thread-id":"5280"},"landmarkIndex":1}"#)
    }

    @Test func bundleIDComesFirstAndThreadIDIsUsed() {
        let options = PayloadOptions(threadID: "trail/7", bundleID: "com.example.Landmarks.watchkitapp")
        let payload = APNsPayload.json(for: LandmarkCatalog.embedded[0], index: 0, options: options)
        #expect(
            payload
                == #"{"Simulator Target Bundle":"com.example.Landmarks.watchkitapp","aps":{"alert":{"title":"Turtle Rock","body":"You are within 5 miles of Turtle Rock."},"category":"LandmarkNear","thread-id":"trail/7"},"landmarkIndex":0}"#
        )
    }

    @Test func namesAreEscapedAsTheSpecSays() {
        let landmark = Landmark(id: 1, name: "Café \"Blue\" / \\ \n\u{1}", coordinate: Coordinate(latitude: 0, longitude: 0))
        let payload = APNsPayload.json(for: landmark, index: 0, options: PayloadOptions())
        #expect(payload.contains(#""title":"Café \"Blue\" / \\ \n\u0001""#))
    }

    @Test func payloadsAreDeterministic() {
        let builder = PayloadBuilder(options: PayloadOptions(bundleID: "b"))
        let first = (0..<12).map { builder.json(for: LandmarkCatalog.embedded[$0], index: $0) }
        let second = (0..<12).map { APNsPayload.json(for: LandmarkCatalog.embedded[$0], index: $0, options: PayloadOptions(bundleID: "b")) }
        #expect(first == second)
    }
}
