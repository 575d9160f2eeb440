import Foundation
import Testing

@_spi(Inlining) @testable import LandmarkNearCore

/// The byte-wise JSON escaping writes what the scalar-wise one of old wrote, and the terminal's
/// escaping catches every control that acts on a terminal or reorders a line.
@Suite(.suiteTimeLimit) struct EscapingTests {
    /// The escaping as `JSONWriter` wrote it before it went byte-wise (one scalar at a time).
    static func reference(_ string: String) -> String {
        var out = "\""
        for scalar in string.unicodeScalars {
            switch scalar.value {
            case 0x22: out += "\\\""
            case 0x5C: out += "\\\\"
            case 0x0A: out += "\\n"
            case 0x0D: out += "\\r"
            case 0x09: out += "\\t"
            case 0x08: out += "\\b"
            case 0x0C: out += "\\f"
            case 0x00..<0x20, 0x7F:
                let hex = String(scalar.value, radix: 16, uppercase: false)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    @Test func jsonEscapingMatchesTheScalarWiseReference() {
        var random = SplitMix64(seed: 43)
        let alphabet: [Unicode.Scalar] = [
            "a", "\"", "\\", "/", "\n", "\r", "\t", "\u{8}", "\u{C}", "\u{0}", "\u{1B}", "\u{1F}", "\u{7F}", "\u{80}", "\u{9B}",
            "é", "\u{202E}", "\u{2028}", "😀", "\u{FEFF}", "<",
        ]
        for _ in 0..<2000 {
            var string = ""
            for _ in 0..<Int(random.next() % 24) { string.unicodeScalars.append(alphabet[Int(random.next() % UInt64(alphabet.count))]) }
            #expect(JSONWriter.quoted(string) == Self.reference(string), "\(Array(string.unicodeScalars))")
            var appended = "x"
            JSONWriter.appendString(string, to: &appended)
            #expect(appended == "x" + Self.reference(string))
        }
    }

    @Test func terminalTextEscapesControlsAndBidirectionalOverrides() {
        #expect(TerminalText.safe("evil\u{1B}]0;title\u{7}\u{1B}[2J") == "evil\\u{1B}]0;title\\u{7}\\u{1B}[2J")
        #expect(TerminalText.safe("a\u{9B}31mb\u{85}") == "a\\u{9B}31mb\\u{85}")
        // Trojan Source: every embedding, override and isolate, and the separators.
        for value: UInt32 in [0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069, 0x2028, 0x2029] {
            let text = "x" + String(Unicode.Scalar(value)!) + "y"
            #expect(TerminalText.safe(text) == "x\\u{\(String(value, radix: 16, uppercase: true))}y")
        }
        // Printable text (neighbours of the escaped ranges included) is returned as it is.
        for text in ["Turtle Rock", "Ñandú", "\u{2027}\u{202F}\u{2065}\u{206A}", "\u{A0}é€", "日本", "🏔️"] {
            #expect(TerminalText.safe(text) == text)
        }
        #expect(TerminalText.safeLines("one\u{1B}\ntwo\u{202E}") == "one\\u{1B}\ntwo\\u{202E}")
    }

    @Test func quotedIsShortWhateverTheLength() {
        #expect(TerminalText.quoted("favourites") == "\"favourites\"")
        #expect(TerminalText.quoted("a\"b\u{1B}") == "\"a\\\"b\\u001b\"")
        let long = String(repeating: "a", count: 1 << 20)
        #expect(TerminalText.quoted(long) == "\"" + String(repeating: "a", count: 64) + "…\" (1048576 bytes)")
        // Cut at a character's start, never inside its UTF-8 bytes.
        let wide = String(repeating: "é", count: 100)
        #expect(TerminalText.quoted(wide, limit: 5) == "\"éé…\" (200 bytes)")
        #expect(TerminalText.singleQuoted("x\u{1B}") == "'x\\u{1B}'")
        #expect(TerminalText.singleQuoted(long, limit: 3) == "'aaa…' (1048576 bytes)")
    }

    @Test func megabyteEscapesInLinearTime() {
        let start = Date()
        let backslashes = String(repeating: "\\", count: 1 << 20)
        #expect(JSONWriter.quoted(backslashes).utf8.count == (2 << 20) + 2)
        let controls = String(repeating: "\u{1B}\u{202E}", count: 1 << 18)
        #expect(TerminalText.safe(controls).utf8.count == (1 << 18) * 14)  // \u{1B} and \u{202E}
        let seconds = Date().timeIntervalSince(start)
        #expect(seconds < 5)
    }
}
