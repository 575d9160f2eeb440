import Foundation
import Testing

@testable import LandmarkNearParser

@Suite(.suiteTimeLimit) struct LocalizedStringsTests {
    @Test func readsEntriesCommentsAndEscapes() throws {
        let text = """
            /* A block
               comment "KEY" = "no"; */
            "A" = "plain"; // trailing comment
            "B" = "quote \\" backslash \\\\ newline \\n tab \\t";
            "C"="tight";
            BARE_KEY = "bare";
            "Ü" = "\\U00e9t\\u00E9";
            "ONLY";
            """
        let strings = try LocalizedStrings(parsing: text, source: "x.strings")
        #expect(strings["A"] == "plain")
        #expect(strings["B"] == "quote \" backslash \\ newline \n tab \t")
        #expect(strings["C"] == "tight")
        #expect(strings["BARE_KEY"] == "bare")
        #expect(strings["Ü"] == "été")
        #expect(strings["ONLY"] == "ONLY")
        #expect(strings["KEY"] == nil)
    }

    @Test(arguments: [
        ("Near %@", ["Icy Bay"], "Near Icy Bay"),
        ("%@ and %@", ["a", "b"], "a and b"),
        ("%2$@ before %1$@", ["a", "b"], "b before a"),
        ("100%% of %@", ["x"], "100% of x"),
        ("%@ %@", ["only"], "only "),
        ("%3$@!", ["a"], "!"),
        ("%d stays", ["a"], "%d stays"),
        ("end %", [], "end %"),
    ])
    func fillsPlaceholders(format: String, arguments: [String], expected: String) {
        #expect(LocalizedStrings.fill(format, arguments: arguments) == expected)
    }

    @Test func readsUTF16WithAByteOrderMark() throws {
        let text = "\"K\" = \"välue\";\n"
        var bytes: [UInt8] = [0xFF, 0xFE]
        for unit in text.utf16 { bytes += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        #expect(try LocalizedStrings(bytes: bytes, source: "u.strings")["K"] == "välue")
        var bigEndian: [UInt8] = [0xFE, 0xFF]
        for unit in text.utf16 { bigEndian += [UInt8(unit >> 8), UInt8(unit & 0xFF)] }
        #expect(try LocalizedStrings(bytes: bigEndian, source: "u.strings")["K"] == "välue")
    }

    @Test(arguments: [
        ("\"A\" = \"x\"\n\"B\" = \"y\";", 2, "expected ';'"),
        ("\"A\" = \"unterminated;\n", 1, "unterminated string"),
        ("/* open\n\n", 1, "unterminated /* comment"),
        ("\n\n\"A\" = ;", 3, "expected a value"),
    ])
    func errorsNameTheLine(text: String, line: Int, reason: String) {
        let error = #expect(throws: StringsParseError.self) { try LocalizedStrings(parsing: text, source: "bad.strings") }
        #expect(error?.line == line)
        #expect(error?.description.hasPrefix("bad.strings:\(line): ") == true)
        #expect(error?.reason.contains(reason) == true)
    }

    @Test func invalidUTF8IsAnError() {
        #expect(throws: StringsParseError.self) { try LocalizedStrings(bytes: [0x22, 0xFF, 0x22], source: "b.strings") }
    }
}
