import Testing

@_spi(Inlining) @testable import LandmarkNearCore
@testable import LandmarkNearReaders

/// `JSONValueBoundary` finds the end of a value exactly where the JSON parser does, whether the
/// bytes come all at once or one at a time, and not a byte earlier.
@Suite(.suiteTimeLimit) struct JSONValueBoundaryTests {
    static let values: [String] = [
        #"{"type":"Feature","properties":{"device":"z"},"geometry":{"type":"Point","coordinates":[-116.1,34.0]}}"#,
        #"{"a":"} ] { [","b":"\"}","c":"\\","d":[[[]],{}],"e":"\u0022"}"#,
        "{\n  \"type\": \"FeatureCollection\",\n  \"features\": [\n  ]\n}",
        #"[1, [2, "]"], {"x": "["}]"#,
        #""a string with } and \" in it""#,
        "{}",
        "[]",
    ]
    static let scalars = ["42", "-1.5e3", "true", "null"]

    static func parserEnd(_ text: String) throws -> Int {
        let bytes = Array(text.utf8)
        return try bytes.withUnsafeBufferPointer { buffer in
            try #require(try JSONParser.parseValue(in: buffer, from: 0)).end
        }
    }

    @Test(arguments: values)
    func aValueEndsAtItsLastByteHoweverItArrives(_ value: String) throws {
        let text = value + " {\"next\":1}\n"
        let bytes = Array(text.utf8)
        let expected = try Self.parserEnd(text)
        #expect(expected == value.utf8.count)
        var whole = JSONValueBoundary()
        #expect(whole.end(in: bytes) == expected)
        var trickle = JSONValueBoundary()
        for count in 1...bytes.count {
            let found = trickle.end(in: Array(bytes[..<count]))
            if count < expected {
                #expect(found == nil, "ended after \(count) of \(expected) bytes")
            } else {
                #expect(found == expected)
                break
            }
        }
    }

    /// A number or literal ends at the first byte that cannot continue it; while none came,
    /// the value may still go on.
    @Test(arguments: scalars)
    func aScalarEndsAtTheByteAfterIt(_ scalar: String) throws {
        var boundary = JSONValueBoundary()
        #expect(boundary.end(in: Array(scalar.utf8)) == nil)
        #expect(boundary.end(in: Array((scalar + "\n").utf8)) == scalar.utf8.count)
        var separated = JSONValueBoundary()
        #expect(separated.end(in: Array((scalar + "\u{1E}").utf8)) == scalar.utf8.count)
    }

    @Test func resetStartsOverForTheNextValue() {
        var boundary = JSONValueBoundary()
        #expect(boundary.end(in: Array("[1,2".utf8)) == nil)
        boundary.reset()
        #expect(boundary.end(in: Array(#""x""#.utf8)) == 3)
    }
}
