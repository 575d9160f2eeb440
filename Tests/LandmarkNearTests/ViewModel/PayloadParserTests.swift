import Foundation
import Testing

@_spi(Inlining) @testable import LandmarkNearCore
@testable import LandmarkNearOutputs
@testable import LandmarkNearParser

@Suite(.suiteTimeLimit) struct PayloadParserTests {
    static let catalog = LandmarkCatalog.embedded
    static let defaultMessage = "You are within 5 miles of one of your favorite landmarks."

    static func parse(_ bytes: [UInt8], source: String = "a.apns", strings: LocalizedStrings? = nil) throws(PayloadParseError)
        -> (NotificationViewModel, warnings: [String])
    {
        try PayloadParser.parse(bytes, source: source, catalog: catalog, strings: strings)
    }

    @Test(arguments: 0..<12)
    func emitThenParseRoundTrips(index: Int) throws {
        for radius in ["5mi", "1mi", "8km", "1ft"] {
            let options = PayloadOptions(radius: try Length(parsing: radius), bundleID: radius == "8km" ? "com.example.app" : nil)
            let payload = APNsPayload.json(for: PayloadParserTests.catalog[index], index: index, options: options)
            let (model, warnings) = try PayloadParserTests.parse(Array(payload.utf8))
            let name = PayloadParserTests.catalog[index].name
            #expect(
                model
                    == NotificationViewModel(
                        title: name, message: "You are within \(options.radius.phrase) of \(name).",
                        landmark: PayloadParserTests.catalog[index], landmarkIndex: index))
            #expect(warnings.isEmpty)
        }
    }

    @Test func aShortenedNameRoundTripsToTheSameShortenedName() throws {
        let long = Landmark(id: 5000, name: String(repeating: "東京👍🏽", count: 600), coordinate: Coordinate(latitude: 1, longitude: 2))
        let catalog = try LandmarkCatalog([long])
        let payload = APNsPayload.json(for: long, index: 0, options: PayloadOptions())
        let (model, _) = try PayloadParser.parse(Array(payload.utf8), source: "long.apns", catalog: catalog, strings: nil)
        #expect(model.title.hasSuffix("…"))
        #expect(model.message == "You are within 5 miles of \(model.title).")
        #expect(model.landmark == long)
    }

    @Test(arguments: [
        ("parse/alert-string.apns", "Unknown Landmark", "Hello from the trail", 2 as Int?, 0),
        ("parse/missing-keys.apns", "Unknown Landmark", defaultMessage, nil, 0),
        ("parse/no-aps.apns", "Unknown Landmark", defaultMessage, 0, 0),
        ("parse/out-of-range-index.apns", "Far Away", defaultMessage, nil, 1),
        ("parse/negative-index.apns", "Unknown Landmark", "Nowhere near", nil, 1),
        ("parse/null-index.apns", "Icy Bay", defaultMessage, nil, 0),
        ("parse/float-index.apns", "Silver Salmon Creek", "Close by.", 1, 0),
        ("parse/pretty-printed.apns", "Lake Umbagog", "You are within 8 km of Lake Umbagog.", 11, 0),
        ("parse/localized.apns", "NEAR_TITLE", "NEAR_BODY", 7, 2),
    ])
    func fixtures(file: String, title: String, message: String, landmarkIndex: Int?, warningCount: Int) throws {
        let (model, warnings) = try PayloadParserTests.parse(try PayloadFixtures.bytes(file), source: file)
        #expect(model.title == title)
        #expect(model.message == message)
        #expect(model.landmark == landmarkIndex.map { PayloadParserTests.catalog[$0] })
        #expect(warnings.count == warningCount)
        #expect(warnings.allSatisfy { $0.hasPrefix(file + ": $.") }, "warnings name the file and the key")
    }

    @Test func outOfRangeKeepsTheIndexAndWarns() throws {
        let (model, warnings) = try PayloadParserTests.parse(Array(#"{"aps":{},"landmarkIndex":12}"#.utf8))
        #expect(model.landmark == nil)
        #expect(model.landmarkIndex == 12)
        #expect(warnings == ["a.apns: $.landmarkIndex: 12 is out of range: the catalog has 12 landmarks (0...11); showing no landmark"])
        let (huge, hugeWarnings) = try PayloadParserTests.parse(Array(#"{"landmarkIndex":1e300}"#.utf8))
        #expect(huge.landmark == nil)
        #expect(hugeWarnings.count == 1)
    }

    @Test func localizedAlertsResolveFromTheTable() throws {
        let strings = try LocalizedStrings(bytes: try PayloadFixtures.bytes("parse/Localizable.strings"), source: "Localizable.strings")
        let (model, warnings) = try PayloadParserTests.parse(try PayloadFixtures.bytes("parse/localized.apns"), strings: strings)
        #expect(model.title == "Near Icy Bay")
        #expect(model.message == "You are within 5 miles of \"Icy Bay\" — 100% sure.")
        #expect(warnings.isEmpty)
        let (fallback, fallbackWarnings) = try PayloadParserTests.parse(
            Array(#"{"aps":{"alert":{"loc-key":"MISSING %@","loc-args":["x"]}}}"#.utf8),
            strings: strings)
        #expect(fallback.message == "MISSING x")
        #expect(
            fallbackWarnings == [#"a.apns: $.aps.alert.loc-key: "MISSING %@": the strings table has no such key; showing the key itself"#])
    }

    @Test(arguments: [
        ("reject/alert-array.apns", "$.aps.alert: must be a string or a dictionary"),
        ("reject/aps-string.apns", "$.aps: must be a dictionary"),
        ("reject/title-number.apns", "$.aps.alert.title: must be a string, got 42"),
        ("reject/body-bool.apns", "$.aps.alert.body: must be a string, got true"),
        ("reject/index-string.apns", #"$.landmarkIndex: must be an integer, got "1""#),
        ("reject/index-fraction.apns", "$.landmarkIndex: must be an integer, got 1.5"),
        ("reject/loc-args-string.apns", "$.aps.alert.loc-args: must be an array of strings"),
        ("reject/not-json.apns", "not JSON: invalid JSON at byte 0"),
        ("reject/top-level-array.apns", "$: must be a JSON object, got an array"),
        ("reject/truncated.apns", "not JSON: invalid JSON at byte 40"),
        ("reject/empty.apns", "is empty"),
        ("reject/invalid-utf8.apns", "invalid UTF-8"),
    ])
    func rejectedFixtures(file: String, reason: String) throws {
        let bytes = try PayloadFixtures.bytes(file)
        let error = #expect(throws: PayloadParseError.self) { try PayloadParserTests.parse(bytes, source: file) }
        #expect(error?.description.hasPrefix(file + ": ") == true)
        #expect(error?.description.contains(reason) == true, "\(error?.description ?? "") mentions \(reason)")
    }

    @Test(arguments: [
        (#"{"aps":{"alert":{"title-loc-key":5}}}"#, "$.aps.alert.title-loc-key"),
        (#"{"aps":{"alert":{"loc-key":"K","loc-args":[1]}}}"#, "$.aps.alert.loc-args[0]"),
        (#"{"aps":{"alert":"x"},"landmarkIndex":true}"#, "$.landmarkIndex"),
        (#"{"aps":{"alert":"x"},"landmarkIndex":[1]}"#, "$.landmarkIndex"),
        (#"{"aps":[]}"#, "$.aps"),
        (#"{"aps":{"alert":false}}"#, "$.aps.alert"),
        ("42", "$"),
        ("null", "$"),
    ])
    func wrongTypesNameTheKey(json: String, path: String) {
        let error = #expect(throws: PayloadParseError.self) { try PayloadParserTests.parse(Array(json.utf8)) }
        #expect(error?.path == path)
    }

    /// A number too large for a Double is named as such, not as the `null` JSON writes for it.
    @Test(arguments: ["1e400", "-1e400"])
    func anIndexBeyondDoublesIsNamed(_ number: String) {
        let json = #"{"aps":{"alert":"x"},"landmarkIndex":"# + number + "}"
        let error = #expect(throws: PayloadParseError.self) { try PayloadParserTests.parse(Array(json.utf8)) }
        #expect(
            error?.description.contains("$.landmarkIndex: must be an integer, got a number beyond ±1.8e308") == true,
            "\(error?.description ?? "")")
    }

    @Test func hostileInputsAreRejectedNotCrashed() {
        let deep = Array(String(repeating: "[", count: 10_000).utf8)
        #expect(throws: PayloadParseError.self) { try PayloadParserTests.parse(deep) }
        let deepObject = Array((String(repeating: #"{"a":"#, count: 10_000) + "1" + String(repeating: "}", count: 10_000)).utf8)
        #expect(throws: PayloadParseError.self) { try PayloadParserTests.parse(deepObject) }
        let tenMB = Array(#"{"aps":{"alert":""#.utf8) + [UInt8](repeating: 0x61, count: 10 << 20) + Array(#""}}"#.utf8)
        let error = #expect(throws: PayloadParseError.self) { try PayloadParserTests.parse(tenMB) }
        #expect(error?.description.contains("too large") == true)
        #expect(throws: PayloadParseError.self) { try PayloadParserTests.parse([0xC3, 0x28]) }
        #expect(throws: PayloadParseError.self) { try PayloadParserTests.parse([0x7B, 0x22, 0xED, 0xA0, 0x80, 0x22, 0x3A, 0x31, 0x7D]) }
        #expect(throws: PayloadParseError.self) { try PayloadParserTests.parse(Array(#"{"aps":{"alert":"\ud800"}}"#.utf8)) }
        #expect(throws: PayloadParseError.self) { try PayloadParserTests.parse([]) }
    }

    @Test func aByteOrderMarkIsSkipped() throws {
        let (model, _) = try PayloadParserTests.parse([0xEF, 0xBB, 0xBF] + Array(#"{"aps":{"alert":"Hi"}}"#.utf8))
        #expect(model.message == "Hi")
        let error = #expect(throws: PayloadParseError.self) { try PayloadParserTests.parse([0xEF, 0xBB, 0xBF] + Array("{x".utf8)) }
        #expect(error?.reason.hasPrefix("not JSON: invalid JSON at byte 4:") == true)
    }

    @Test func viewModelJSON() throws {
        let (model, _) = try PayloadParserTests.parse(Array(#"{"aps":{"alert":{"title":"T \"q\"","body":"B/é"}},"landmarkIndex":1}"#.utf8))
        #expect(
            model.json(source: "a.apns")
                == #"{"source":"a.apns","title":"T \"q\"","message":"B/é","landmark":{"index":1,"id":1002,"name":"Silver Salmon Creek","park":"Lake Clark National Park and Preserve","state":"Alaska"}}"#
        )
        #expect(
            NotificationViewModel().json(source: "<stdin>")
                == #"{"source":"<stdin>","title":"Unknown Landmark","message":"You are within 5 miles of one of your favorite landmarks.","landmark":null}"#
        )
        let bare = Landmark(id: 7, name: "Bare", coordinate: Coordinate(latitude: 0, longitude: 0))
        #expect(
            NotificationViewModel(landmark: bare, landmarkIndex: 0).json(source: "s")
                == #"{"source":"s","title":"Unknown Landmark","message":"You are within 5 miles of one of your favorite landmarks.","landmark":{"index":0,"id":7,"name":"Bare","park":null,"state":null}}"#
        )
    }

    @Test func theCardShowsParkAndStateAndNeutralizesControls() {
        let landmark = LandmarkCatalog.embedded[1]
        let lines = NotificationCard.lines(
            for: NotificationViewModel(title: "Evil\u{1B}[2J", message: "line\nbreak", landmark: landmark, landmarkIndex: 1),
            source: "a.apns")
        #expect(lines.contains("  Lake Clark National Park and Preserve, Alaska"))
        #expect(lines.allSatisfy { !$0.contains("\u{1B}") && !$0.contains("\n") })
        #expect(NotificationCard.lines(for: NotificationViewModel(), source: "x").last == "  (no landmark)")
    }
}
