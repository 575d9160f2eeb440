/// A command-line quantity split into its number and its unit word: `5mi`, `5 miles`, `5MI`,
/// `2.5 Kilometres` and `90 s` all read the same way. The number is plain decimal digits with
/// at most one point (no sign, no exponent); the unit is letters, compared case-insensitively.
///
///     QuantityText("2.5 Kilometres")   // number "2.5", unit "kilometres"
struct QuantityText {
    var number: Substring
    /// The unit word, lowercased; empty when the text has none.
    var unit: String

    /// Nil when the text is not digits (and a point) followed by letters, blanks allowed
    /// around and between them.
    init?(_ text: String) {
        let trimmed = ASCIIBlanks.spacesAndTabs.trimming(text)
        let unitStart = trimmed.firstIndex(where: { !($0.isASCII && ($0.isNumber || $0 == ".")) }) ?? trimmed.endIndex
        let number = trimmed[..<unitStart]
        let unit = ASCIIBlanks.spacesAndTabs.trimming(trimmed[unitStart...])
        guard !number.isEmpty, number.filter({ $0 == "." }).count <= 1, number != ".",
            unit.allSatisfy({ $0.isASCII && $0.isLetter })
        else { return nil }
        self.number = number
        self.unit = unit.lowercased()
    }
}
