import Testing

@_spi(Inlining) @testable import LandmarkNearCore

@Suite(.suiteTimeLimit) struct JSONParserTests {
    @Test func keepsKeyOrderAndTypes() throws {
        let value = try JSONParser.parse(#"{"b":1,"a":[true,false,null,"x\u00e9\ud83d\ude00"],"c":{"d":-1.5e2}}"#)
        #expect(value.objectValue?.keys == ["b", "a", "c"])
        #expect(value["b"]?.integer == 1)
        #expect(value["a"]?.arrayValue == [.bool(true), .bool(false), .null, .string("xé😀")])
        #expect(value["c"]?["d"]?.doubleValue == -150)
    }

    @Test(arguments: [
        ("", "empty document"), ("{", "unexpected end"), ("[1,]", "unexpected character"),
        ("{\"a\" 1}", "expected ':'"), ("01", "leading zero"), ("1 2", "after the JSON value"),
        ("\"\\ud800\"", "lone surrogate"), ("\"a\u{01}\"", "control character"), ("tru", "unexpected end"),
        ("nul", "unexpected end"), ("\"\\x\"", "invalid escape"), ("NaN", "unexpected character"),
    ])
    func rejectsMalformedText(text: String, reason: String) {
        #expect {
            _ = try JSONParser.parse(text)
        } throws: { error in
            (error as? JSONParseError)?.reason.contains(reason) == true
        }
    }

    @Test func rejectsInvalidUTF8() {
        #expect(throws: JSONParseError.self) { _ = try JSONParser.parse([0x22, 0xFF, 0xFE, 0x22]) }
    }

    @Test func deepNestingIsAnErrorNotACrash() {
        let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        #expect {
            _ = try JSONParser.parse(deep)
        } throws: { error in
            (error as? JSONParseError)?.reason.contains("nesting deeper") == true
        }
        let fine = String(repeating: "[", count: 500) + String(repeating: "]", count: 500)
        #expect(throws: Never.self) { _ = try JSONParser.parse(fine) }
    }

    @Test func integersIncludeIntegralDoubles() throws {
        #expect(try JSONParser.parse("1.0").integer == 1)
        #expect(try JSONParser.parse("1.5").integer == nil)
        #expect(try JSONParser.parse("\"1\"").integer == nil)
        #expect(try JSONParser.parse("1e400").doubleValue == .infinity)
    }
}

@Suite(.suiteTimeLimit) struct JSONWriterTests {
    @Test(arguments: [
        ("plain", #""plain""#), ("a/b", #""a/b""#), ("q\"b\\", #""q\"b\\""#), ("n\nt\tr\r", #""n\nt\tr\r""#),
        ("\u{01}\u{1F}\u{7F}", #""\u0001\u001f\u007f""#), ("é😀", "\"é😀\""),
    ])
    func escapesOnlyWhatJSONNeeds(input: String, expected: String) throws {
        #expect(JSONWriter.quoted(input) == expected)
        #expect(try JSONParser.parse(expected) == .string(input))
    }

    @Test func roundTripsDocuments() throws {
        let text = #"{"aps":{"alert":{"title":"T","body":"B"},"badge":3},"x":[1,2.5,null,true]}"#
        #expect(JSONWriter.serialize(try JSONParser.parse(text)) == text)
    }

    @Test func numbers() {
        #expect(JSONWriter.number(5) == "5")
        #expect(JSONWriter.number(-116.166868) == "-116.166868")
        #expect(JSONWriter.number(.nan) == "null")
    }
}
