/// What the one "no fix" warning says about a non-empty input that held no record at all
/// (docs/reference/fixes.md: a non-empty input that gives no fix and no error says why), e.g.
/// `the input has no records, only 2 comment lines (starting with #)`.
///
///     NothingReadExplanation.lines(comments: 2, blanks: 1)
///     // "the input has no records, only 2 comment lines (starting with #) and 1 blank line"
enum NothingReadExplanation {
    static let prefix = "the input has no records, only "

    /// For a line-based input (NDJSON, CSV, NMEA) of comment and blank lines; nil for none.
    static func lines(comments: Int, blanks: Int) -> String? {
        var parts: [String] = []
        if comments > 0 { parts.append("\(comments) comment line\(comments == 1 ? "" : "s") (starting with #)") }
        if blanks > 0 { parts.append("\(blanks) blank line\(blanks == 1 ? "" : "s")") }
        guard !parts.isEmpty else { return nil }
        return prefix + parts.joined(separator: " and ")
    }

    /// For a document format (XML, GeoJSON) that met nothing but white space.
    static let whiteSpace = prefix + "white space"
    /// For an input of a UTF-8 byte-order mark and nothing else.
    static let byteOrderMark = prefix + "a byte-order mark"
    /// For a gzip input whose members inflate to no byte.
    static let emptyGzip = "the input is gzip data that inflates to nothing"
}
