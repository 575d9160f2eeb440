/// Untrusted text made safe for a line a person reads (stderr, `--explain`, serve's and the
/// deliveries' log lines, `landmarks`, `parse`): the one function every such message goes through.
/// What would act on the terminal or change how the line reads is shown as `\u{..}` instead:
///
/// - C0 controls and DEL (escape sequences, BEL, newlines, carriage returns, backspaces);
/// - C1 controls U+0080–U+009F (CSI and OSC in their 8-bit form);
/// - the line and paragraph separators U+2028, U+2029;
/// - the bidirectional embeddings, overrides and isolates U+202A–U+202E, U+2066–U+2069, which
///   make text display in another order than it is ("Trojan Source", CVE-2021-42574).
///
///     TerminalText.safe("evil\u{1B}[2Jname")          // "evil\\u{1B}[2Jname"
///     TerminalText.quoted(String(repeating: "a", count: 1 << 20))   // "\"aaaa…\" (1048576 bytes)"
///
/// Linear in the text, and a text with nothing to escape (nearly all) is returned as it is after
/// one pass over its bytes.
package enum TerminalText {
    package static func safe(_ text: String) -> String {
        guard mayNeedEscape(text) else { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count + 16)
        for scalar in text.unicodeScalars {
            if isEscaped(scalar) {
                out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                // One scalar at a time is amortised O(1); `unicodeScalars.append(contentsOf:)`
                // would copy the whole string each time.
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// `safe` for a message of several lines: each line made safe, the line breaks kept. The
    /// writers of stderr apply it to whatever they are given, as a second line of defence
    /// behind the call sites (which escape the values they quote, newlines included).
    package static func safeLines(_ text: String) -> String {
        guard mayNeedEscape(text) else { return text }
        return text.split(separator: "\n", omittingEmptySubsequences: false).map { safe(String($0)) }.joined(separator: "\n")
    }

    /// Untrusted text quoted for a message, shortened: JSON-quoted (`\"` and `\\` escaped, control
    /// characters as `\n` or `\u001b`) and safe, cut after `limit` bytes (at a character's
    /// start) with `…` and the length it had: `"aaaa…" (1048576 bytes)`. A message quoting a
    /// 1 MiB device name or key is then one short line, not a megabyte.
    package static func quoted(_ text: String, limit: Int = 64) -> String {
        let length = text.utf8.count
        guard length > limit else { return safe(JSONWriter.quoted(text)) }
        let shown = safe(JSONWriter.quoted(prefix(of: text, bytes: limit)))
        return String(shown.dropLast()) + "…\" (\(length) bytes)"
    }

    /// `text` between single quotes, safe and shortened as `quoted` does it: for usage messages,
    /// which quote option values that way (`--events takes ..., not 'x'`).
    package static func singleQuoted(_ text: String, limit: Int = 64) -> String {
        let length = text.utf8.count
        guard length > limit else { return "'" + safe(text) + "'" }
        return "'" + safe(prefix(of: text, bytes: limit)) + "…' (\(length) bytes)"
    }

    /// The longest prefix of whole scalars of `text` of at most `bytes` bytes.
    private static func prefix(of text: String, bytes: Int) -> String {
        var kept = 0
        var end = text.unicodeScalars.startIndex
        for scalar in text.unicodeScalars {
            let width = UTF8.width(scalar)
            if kept + width > bytes { break }
            kept += width
            end = text.unicodeScalars.index(after: end)
        }
        return String(text.unicodeScalars[..<end])
    }

    @inline(__always)
    static func isEscaped(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00..<0x20, 0x7F...0x9F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }

    /// False when no byte of `text` can start an escaped scalar: every one is ASCII (below 0x20
    /// or DEL), starts with 0xC2 (U+0080–U+009F) or with 0xE2 (U+2028–U+202E, U+2066–U+2069).
    private static func mayNeedEscape(_ text: String) -> Bool {
        text.utf8.contains { $0 < 0x20 || $0 == 0x7F || $0 == 0xC2 || $0 == 0xE2 }
    }
}
