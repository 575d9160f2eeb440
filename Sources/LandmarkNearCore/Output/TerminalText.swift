/// Untrusted text made safe for a terminal line: control characters (escape sequences,
/// newlines, carriage returns) are shown as `\u{..}` instead of acting on the terminal.
///
///     TerminalText.safe("evil\u{1B}[2Jname")   // "evil\\u{1B}[2Jname"
package enum TerminalText {
    package static func safe(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.value == 0x2028 || scalar.value == 0x2029 {
                out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
