import Foundation
import Testing

@_spi(Inlining) @testable import LandmarkNearCore
@testable import LandmarkNearOutputs

/// The 4096-byte limit: long names are cut to whole grapheme clusters plus "…".
@Suite(.suiteTimeLimit) struct PayloadSizeTests {
    static func landmark(_ name: String) -> Landmark {
        Landmark(id: 1, name: name, coordinate: Coordinate(latitude: 0, longitude: 0))
    }

    /// The payload built independently of `PayloadBuilder`, through `JSONWriter.serialize`.
    static func reference(name: String, index: Int, options: PayloadOptions) -> String {
        var members: [(key: String, value: JSONValue)] = []
        if let bundle = options.bundleID { members.append(("Simulator Target Bundle", .string(bundle))) }
        let alert = JSONObject([("title", .string(name)), ("body", .string("You are within \(options.radius.phrase) of \(name)."))])
        let aps = JSONObject([("alert", .object(alert)), ("category", .string("LandmarkNear")), ("thread-id", .string(options.threadID))])
        members.append(("aps", .object(aps)))
        members.append(("landmarkIndex", .number(Double(index))))
        return JSONWriter.serialize(.object(JSONObject(members)))
    }

    /// Checks every promise of the size rule for one name.
    static func check(_ name: String, index: Int = 1, options: PayloadOptions = PayloadOptions()) throws {
        let payload = APNsPayload.json(for: landmark(name), index: index, options: options)
        #expect(payload.utf8.count <= APNsPayload.maximumBytes)
        let parsed = try JSONParser.parse(payload)
        let title = try #require(parsed["aps"]?["alert"]?["title"]?.stringValue)
        #expect(parsed["aps"]?["alert"]?["body"]?.stringValue == "You are within \(options.radius.phrase) of \(title).")
        #expect(parsed["landmarkIndex"]?.integer == index)
        #expect(payload == reference(name: title, index: index, options: options))
        if reference(name: name, index: index, options: options).utf8.count <= APNsPayload.maximumBytes {
            #expect(title == name)
            return
        }
        #expect(title.hasSuffix("…"))
        let prefix = String(title.unicodeScalars.dropLast())
        let kept = prefix.count
        #expect(kept < name.count)
        #expect(Array(name.prefix(kept).unicodeScalars) == Array(prefix.unicodeScalars), "a prefix of whole grapheme clusters")
        let oneMore = String(name.prefix(kept + 1)) + "…"
        #expect(
            reference(name: oneMore, index: index, options: options).utf8.count > APNsPayload.maximumBytes,
            "one more grapheme would not fit")
    }

    static let overhead = reference(name: "", index: 1, options: PayloadOptions()).utf8.count
    /// The longest ASCII name that fits unshortened with index 1.
    static let longestASCII = (APNsPayload.maximumBytes - overhead) / 2

    @Test(arguments: [longestASCII - 1, longestASCII, longestASCII + 1, longestASCII + 2, 5000, 100_000])
    func asciiNamesAroundTheBoundary(length: Int) throws {
        let name = String(repeating: "a", count: length)
        try PayloadSizeTests.check(name)
        let payload = APNsPayload.json(for: PayloadSizeTests.landmark(name), index: 1, options: PayloadOptions())
        if length <= PayloadSizeTests.longestASCII {
            #expect(!payload.contains("…"))
        } else {
            #expect(payload.contains("…"))
        }
    }

    @Test func theLongestNameFillsThePayloadExactly() throws {
        // Use an odd overhead slack so that one byte more would not fit either.
        let name = String(repeating: "b", count: PayloadSizeTests.longestASCII)
        let payload = APNsPayload.json(for: PayloadSizeTests.landmark(name), index: 1, options: PayloadOptions())
        #expect(payload.utf8.count > APNsPayload.maximumBytes - 2)
        #expect(payload.utf8.count <= APNsPayload.maximumBytes)
    }

    @Test(arguments: [
        String(repeating: "東京湾", count: 900),
        String(repeating: "👨‍👩‍👧‍👦", count: 400),
        "Lake " + String(repeating: "🏳️‍🌈🇺🇸", count: 300),
        String(repeating: "e\u{301}", count: 2000),
        String(repeating: "\"\\", count: 1500),
        String(repeating: "\u{1}\n\t\u{7F}", count: 600),
        String(repeating: "a\"", count: 1400) + "👩‍🚒",
        "x" + String(repeating: "\u{1F1EF}\u{1F1F5}", count: 700),
        String(repeating: "ё", count: 2040),
        String(repeating: "ا", count: 2100) + String(repeating: "\u{200D}", count: 5),
    ])
    func hostileLongNamesAreCutCleanly(name: String) throws {
        try PayloadSizeTests.check(name)
        try PayloadSizeTests.check(
            name, index: 123_456, options: PayloadOptions(radius: .quarterMile, threadID: "t", bundleID: "com.example.app"))
    }

    @Test(arguments: 0..<12)
    func namesOfEveryLengthNearTheLimitWithMultiByteCharacters(shift: Int) throws {
        // Walk the boundary with a name mixing 1-, 2-, 3- and 4-byte clusters and escapes.
        let unit = "a\u{E9}東👍🏽\"\n"
        let name = String(repeating: unit, count: 120) + String(unit.prefix(shift % 6))
        try PayloadSizeTests.check(name)
        try PayloadSizeTests.check(String(name.dropFirst(shift)))
    }

    @Test func optionsThatLeaveNoRoomAreAnError() {
        let huge = String(repeating: "z", count: 4090)
        #expect(throws: PayloadError.self) {
            try APNsPayload.make(for: LandmarkCatalog.embedded[1], index: 1, options: PayloadOptions(bundleID: huge))
        }
        #expect(throws: PayloadError.self) {
            try APNsPayload.make(for: LandmarkCatalog.embedded[1], index: 1, options: PayloadOptions(threadID: huge))
        }
        // Without make's check, the best-effort payload still names no more than "…".
        let payload = APNsPayload.json(for: LandmarkCatalog.embedded[1], index: 1, options: PayloadOptions(threadID: huge))
        #expect(payload.contains(#""title":"…""#))
    }

    @Test func checkFitsAgreesWithMake() throws {
        let overhead = PayloadBuilder(options: PayloadOptions(threadID: "")).overheadBytes(index: 1)
        // The longest thread id that leaves room for "…" in title and body, and one more byte.
        let longest = String(repeating: "t", count: APNsPayload.maximumBytes - overhead - 6)
        try PayloadOptions(threadID: longest).checkFits(maximumIndex: 1)
        #expect(
            try APNsPayload.make(for: LandmarkCatalog.embedded[1], index: 1, options: PayloadOptions(threadID: longest))
                .contains(#""title":"…""#))
        #expect(throws: PayloadError.self) { try PayloadOptions(threadID: longest + "t").checkFits(maximumIndex: 1) }
        #expect(throws: PayloadError.self) {
            try APNsPayload.make(for: LandmarkCatalog.embedded[1], index: 1, options: PayloadOptions(threadID: longest + "t"))
        }
        #expect(throws: PayloadError.self) { try PayloadOptions(threadID: longest).checkFits() }
        try PayloadOptions().checkFits()
    }

    @Test func aLargeBundleIDStillLeavesRoomForAShortenedName() throws {
        let bundle = String(repeating: "c", count: 3900)
        let options = PayloadOptions(bundleID: bundle)
        let payload = try APNsPayload.make(for: LandmarkCatalog.embedded[1], index: 1, options: options)
        #expect(payload.utf8.count <= APNsPayload.maximumBytes)
        #expect(payload.hasPrefix(#"{"Simulator Target Bundle":""#))
        try PayloadSizeTests.check("Silver Salmon Creek", options: options)
    }
}
