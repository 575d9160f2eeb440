import Foundation
import Testing

@_spi(Inlining) @testable import LandmarkNearCore
@testable import LandmarkNearOutputs

@Suite(.suiteTimeLimit) struct PayloadValidatorTests {
    static func errors(_ json: String) -> [String] {
        PayloadValidator.validate(Array(json.utf8)).filter(\.isError).map(\.description)
    }

    static func warnings(_ json: String) -> [String] {
        PayloadValidator.validate(Array(json.utf8)).filter { !$0.isError }.map(\.description)
    }

    @Test(arguments: [
        #"{"aps":{}}"#,
        #"{"aps":{"alert":"Hi"}}"#,
        #"{"aps":{"alert":{"title":"T","subtitle":"S","body":"B","launch-image":"L"}}}"#,
        #"{"aps":{"alert":{"loc-key":"K","loc-args":["a","b"],"title-loc-key":"T","title-loc-args":[],"subtitle-loc-key":"S","subtitle-loc-args":["x"]}}}"#,
        #"{"aps":{"badge":0}}"#, #"{"aps":{"badge":12}}"#, #"{"aps":{"badge":3.0}}"#,
        #"{"aps":{"sound":"default"}}"#, #"{"aps":{"sound":{"critical":1,"name":"alarm.caf","volume":1.0}}}"#,
        #"{"aps":{"sound":{"critical":true,"name":"a","volume":0}}}"#, #"{"aps":{"sound":{"critical":0,"name":"a"}}}"#,
        #"{"aps":{"content-available":1}}"#, #"{"aps":{"mutable-content":1}}"#,
        #"{"aps":{"interruption-level":"passive"}}"#, #"{"aps":{"interruption-level":"active"}}"#,
        #"{"aps":{"interruption-level":"time-sensitive"}}"#, #"{"aps":{"interruption-level":"critical"}}"#,
        #"{"aps":{"relevance-score":0}}"#, #"{"aps":{"relevance-score":0.5}}"#, #"{"aps":{"relevance-score":1}}"#,
        #"{"aps":{"thread-id":"5280","category":"LandmarkNear","target-content-id":"x","filter-criteria":"f"}}"#,
        #"{"Simulator Target Bundle":"com.example.app","aps":{"alert":"Hi"},"landmarkIndex":1}"#,
        "  \n{\"aps\":{}}\n\n",
    ])
    func validPayloads(json: String) {
        #expect(PayloadValidatorTests.errors(json) == [])
    }

    @Test(arguments: [
        (#"{"aps":{"badge":"3"}}"#, #"$.aps.badge: must be a non-negative integer, got "3""#),
        (#"{"aps":{"badge":-1}}"#, "$.aps.badge: must be a non-negative integer, got -1"),
        (#"{"aps":{"badge":1.5}}"#, "$.aps.badge: must be a non-negative integer, got 1.5"),
        (#"{"aps":{"alert":7}}"#, "$.aps.alert: must be a string or a dictionary, got 7"),
        (#"{"aps":{"alert":null}}"#, "$.aps.alert: must be a string or a dictionary, got null"),
        (#"{"aps":{"alert":{"title":1}}}"#, "$.aps.alert.title: must be a string, got 1"),
        (#"{"aps":{"alert":{"subtitle":[]}}}"#, "$.aps.alert.subtitle: must be a string, got []"),
        (#"{"aps":{"alert":{"body":{}}}}"#, "$.aps.alert.body: must be a string, got {}"),
        (#"{"aps":{"alert":{"launch-image":false}}}"#, "$.aps.alert.launch-image: must be a string, got false"),
        (#"{"aps":{"alert":{"loc-key":3}}}"#, "$.aps.alert.loc-key: must be a string, got 3"),
        (#"{"aps":{"alert":{"title-loc-key":null}}}"#, "$.aps.alert.title-loc-key: must be a string, got null"),
        (#"{"aps":{"alert":{"subtitle-loc-key":1}}}"#, "$.aps.alert.subtitle-loc-key: must be a string, got 1"),
        (#"{"aps":{"alert":{"loc-args":["a"]}}}"#, #"$.aps.alert.loc-args: is only allowed alongside "loc-key", which is missing"#),
        (
            #"{"aps":{"alert":{"title-loc-args":["a"]}}}"#,
            #"$.aps.alert.title-loc-args: is only allowed alongside "title-loc-key", which is missing"#
        ),
        (
            #"{"aps":{"alert":{"subtitle-loc-args":[]}}}"#,
            #"$.aps.alert.subtitle-loc-args: is only allowed alongside "subtitle-loc-key", which is missing"#
        ),
        (#"{"aps":{"alert":{"loc-key":"K","loc-args":"a"}}}"#, #"$.aps.alert.loc-args: must be an array of strings, got "a""#),
        (#"{"aps":{"alert":{"loc-key":"K","loc-args":["a",2]}}}"#, "$.aps.alert.loc-args[1]: must be a string, got 2"),
        (#"{"aps":{"sound":5}}"#, "$.aps.sound: must be a string or a dictionary, got 5"),
        (#"{"aps":{"sound":{"critical":2,"name":"a"}}}"#, "$.aps.sound.critical: must be 0, 1 or a boolean, got 2"),
        (#"{"aps":{"sound":{"critical":"1","name":"a"}}}"#, #"$.aps.sound.critical: must be 0, 1 or a boolean, got "1""#),
        (#"{"aps":{"sound":{"name":1}}}"#, "$.aps.sound.name: must be a string, got 1"),
        (#"{"aps":{"sound":{"name":"a","volume":1.01}}}"#, "$.aps.sound.volume: must be a number from 0 to 1, got 1.01"),
        (#"{"aps":{"sound":{"name":"a","volume":-0.1}}}"#, "$.aps.sound.volume: must be a number from 0 to 1, got -0.1"),
        (#"{"aps":{"content-available":0}}"#, "$.aps.content-available: must be 1 (leave the key out otherwise), got 0"),
        (#"{"aps":{"content-available":true}}"#, "$.aps.content-available: must be 1 (leave the key out otherwise), got true"),
        (#"{"aps":{"mutable-content":"1"}}"#, #"$.aps.mutable-content: must be 1 (leave the key out otherwise), got "1""#),
        (
            #"{"aps":{"interruption-level":"urgent"}}"#,
            #"$.aps.interruption-level: must be one of passive, active, time-sensitive, critical, got "urgent""#
        ),
        (#"{"aps":{"interruption-level":1}}"#, "$.aps.interruption-level: must be one of passive, active, time-sensitive, critical, got 1"),
        (#"{"aps":{"relevance-score":1.5}}"#, "$.aps.relevance-score: must be a number from 0 to 1, got 1.5"),
        (#"{"aps":{"relevance-score":"0.5"}}"#, #"$.aps.relevance-score: must be a number from 0 to 1, got "0.5""#),
        (#"{"aps":{"thread-id":5280}}"#, "$.aps.thread-id: must be a string, got 5280"),
        (#"{"aps":{"category":null}}"#, "$.aps.category: must be a string, got null"),
        (#"{"aps":{"target-content-id":[]}}"#, "$.aps.target-content-id: must be a string, got []"),
        (#"{"aps":{"filter-criteria":{}}}"#, "$.aps.filter-criteria: must be a string, got {}"),
        (#"{"Simulator Target Bundle":"","aps":{}}"#, #"$["Simulator Target Bundle"]: must be a non-empty bundle identifier"#),
        (#"{"Simulator Target Bundle":42,"aps":{}}"#, #"$["Simulator Target Bundle"]: must be a string (a bundle identifier), got 42"#),
        (#"{"alert":"Hi"}"#, #"$.aps: is missing: a payload needs an "aps" dictionary"#),
        (#"{"aps":"Hi"}"#, #"$.aps: must be a dictionary, got "Hi""#),
        (#"{"aps":null}"#, "$.aps: must be a dictionary, got null"),
        (#"[{"aps":{}}]"#, "$: must be a JSON object, got an array"),
        (#""aps""#, "$: must be a JSON object, got a string"),
    ])
    func eachRuleReportsItsPath(json: String, expected: String) {
        #expect(PayloadValidatorTests.errors(json) == [expected])
    }

    @Test func unknownKeysAreWarningsNotErrors() {
        let json = #"{"aps":{"alert":{"body":"B","colour":"red"},"x-custom":1,"sound":{"name":"a","pitch":2}},"landmarkIndex":1}"#
        #expect(PayloadValidatorTests.errors(json) == [])
        #expect(
            PayloadValidatorTests.warnings(json) == [
                "warning: $.aps.alert.colour: is not a standard alert key",
                #"warning: $.aps.x-custom: is not a standard aps key (custom data belongs outside "aps")"#,
                "warning: $.aps.sound.pitch: is not a standard sound key",
            ])
    }

    @Test func sizeIsLimitedTo4096Bytes() {
        func payload(bodyLength: Int) -> String { #"{"aps":{"alert":{"body":""# + String(repeating: "x", count: bodyLength) + #""}}}"# }
        let overhead = payload(bodyLength: 0).utf8.count
        #expect(PayloadValidatorTests.errors(payload(bodyLength: 4096 - overhead)) == [])
        #expect(PayloadValidatorTests.errors(payload(bodyLength: 4096 - overhead) + "\n") == [], "a trailing newline does not count")
        #expect(
            PayloadValidatorTests.errors(payload(bodyLength: 4097 - overhead))
                == ["$: the payload is 4097 bytes, more than the 4096 APNs accepts"])
    }

    @Test func aMaximalGeneratedPayloadIsValid() {
        let landmark = Landmark(id: 9, name: String(repeating: "👨‍👩‍👧‍👦\"", count: 500), coordinate: Coordinate(latitude: 0, longitude: 0))
        let payload = APNsPayload.json(for: landmark, index: 3, options: PayloadOptions(bundleID: "com.example.app"))
        #expect(PayloadValidatorTests.errors(payload) == [])
    }

    @Test(arguments: [
        ("", "$: is empty, not a JSON payload"),
        ("  \n", "$: is empty, not a JSON payload"),
        ("not json", "$: not JSON: invalid JSON at byte 0: invalid literal"),
        ("\n  {\"aps\":{}", "$: not JSON: invalid JSON at byte 12: unexpected end of input in an object"),
        (String(repeating: "[", count: 10_000), "$: not JSON: invalid JSON at byte 512: nesting deeper than 512 levels"),
    ])
    func nonJSONGetsAByteOffset(text: String, expected: String) {
        #expect(PayloadValidatorTests.errors(text) == [expected])
    }

    @Test func aByteOrderMarkIsAWarning() {
        let problems = PayloadValidator.validate([0xEF, 0xBB, 0xBF] + Array(#"{"aps":{"badge":-2}}"#.utf8))
        #expect(
            problems.map(\.description) == [
                "warning: $: starts with a UTF-8 byte-order mark; send the payload without it",
                "$.aps.badge: must be a non-negative integer, got -2",
            ])
    }

    @Test func invalidUTF8IsNotJSON() {
        let problems = PayloadValidator.validate([0x7B, 0x22, 0x61, 0xFF, 0x22, 0x3A, 0x31, 0x7D])
        #expect(problems.map(\.description) == ["$: not JSON: invalid JSON at byte 1: invalid UTF-8 in a string"])
    }

    @Test(arguments: ["valid-full.apns", "valid-minimal.apns", "unknown-aps-key.apns"])
    func validFixtures(file: String) throws {
        #expect(PayloadValidator.validate(try PayloadFixtures.bytes("validate/" + file)).filter(\.isError).isEmpty)
    }

    @Test(arguments: [
        ("alert-wrong.apns", 3), ("aps-array.apns", 1), ("badge-string.apns", 1), ("empty-bundle.apns", 1),
        ("many-wrong.apns", 12), ("no-aps.apns", 1),
    ])
    func invalidFixtures(file: String, errorCount: Int) throws {
        #expect(PayloadValidator.validate(try PayloadFixtures.bytes("validate/" + file)).filter(\.isError).count == errorCount)
    }
}
