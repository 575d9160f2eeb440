@_spi(Inlining) import LandmarkNearCore

/// A query position as the user wrote it: the coordinate, and the two numbers' text so that an
/// answer can echo them unchanged (`34.0` stays `34.0`).
///
///     let point = try QueryPoint(latitude: "34.0", longitude: "-116")
///     point.coordinate            // 34.0,-116.0
///     point.jsonLatitude          // "34.0"
///
/// Two numbers that each hold one decimal comma and no point (`34,5` and `-116,2`) are read
/// with decimal commas: no other reading of them is a position. A latitude out of range that
/// would be a valid longitude, next to a longitude that would be a valid latitude, gets a hint
/// at the order (`-116 34`: "did you mean 34,-116?").
package struct QueryPoint: Sendable, Equatable {
    package var coordinate: Coordinate
    package var latitudeText: String
    package var longitudeText: String

    /// The order of the two numbers on a line: `lat,lon` (docs/reference/commands.md), or `lon,lat` after a header
    /// line that says so.
    package enum Order: Sendable, Equatable {
        case latitudeFirst
        case longitudeFirst
    }

    /// Parses a latitude and a longitude in decimal degrees (`-33.9`, `151.2`, `1e1`; both with a
    /// decimal comma, `-33,9` and `151,2`), finite and in range. `order` says how they were
    /// written, for the hint when they look swapped.
    package init(latitude: String, longitude: String, order: Order = .latitudeFirst) throws(QueryPointError) {
        var latitudeText = String(ASCIIBlanks.whitespace.trimming(latitude))
        var longitudeText = String(ASCIIBlanks.whitespace.trimming(longitude))
        if QueryPoint.hasDecimalComma(latitudeText), QueryPoint.hasDecimalComma(longitudeText) {
            latitudeText = QueryPoint.withDecimalPoint(latitudeText)
            longitudeText = QueryPoint.withDecimalPoint(longitudeText)
        }
        var (latitudeNumber, latitudeLetter) = QueryPoint.hemisphere(latitudeText)
        var (longitudeNumber, longitudeLetter) = QueryPoint.hemisphere(longitudeText)
        // `116.0W 34.0N`: the letters say which is which.
        if let first = latitudeLetter, let second = longitudeLetter, "EW".contains(first), "NS".contains(second) {
            swap(&latitudeNumber, &longitudeNumber)
            swap(&latitudeLetter, &longitudeLetter)
            swap(&latitudeText, &longitudeText)
        }
        var lat = try QueryPoint.degrees(latitudeNumber, name: "latitude")
        var lon = try QueryPoint.degrees(longitudeNumber, name: "longitude")
        lat = try QueryPoint.signed(lat, latitudeLetter, positive: "N", negative: "S", text: latitudeText, name: "latitude")
        lon = try QueryPoint.signed(lon, longitudeLetter, positive: "E", negative: "W", text: longitudeText, name: "longitude")
        let coordinate = Coordinate(latitude: lat, longitude: lon)
        if let reason = coordinate.invalidReason {
            throw QueryPointError(reason + QueryPoint.orderHint(coordinate, latitudeText, longitudeText, order))
        }
        self.coordinate = coordinate
        self.latitudeText = latitudeText
        self.longitudeText = longitudeText
    }

    /// Parses one input line: `lat,lon` (spaces allowed around the numbers), or the two numbers
    /// separated by blanks (`34,5 -116,2`: with decimal commas). Returns nil for a line to skip:
    /// blank, or a `#` comment.
    package init?(line: some StringProtocol, order: Order = .latitudeFirst) throws(QueryPointError) {
        let text = String(ASCIIBlanks.whitespace.trimming(ByteOrderMark.dropped(from: Substring(line))))
        if text.isEmpty || text.hasPrefix("#") { return nil }
        let blankSeparated = text.split(whereSeparator: { $0 == " " || $0 == "\t" })
        var fields: [Substring]
        if blankSeparated.count == 2, blankSeparated.allSatisfy(QueryPoint.hasDecimalComma) {
            fields = blankSeparated
        } else if text.contains(",") {
            fields = text.split(separator: ",", omittingEmptySubsequences: false)
        } else if text.contains(";") {
            // `34;-116`, as a spreadsheet with decimal commas exports it.
            fields = text.split(separator: ";", omittingEmptySubsequences: false)
        } else {
            fields = blankSeparated
        }
        guard fields.count == 2 else {
            var reason = "expected 'lat,lon' (two numbers), found \(fields.count) field\(fields.count == 1 ? "" : "s")"
            if fields.count == 4, fields.allSatisfy(QueryPoint.isWholeNumber) {
                let first = "\(ASCIIBlanks.whitespace.trimming(fields[0])).\(ASCIIBlanks.whitespace.trimming(fields[1]))"
                let second = "\(ASCIIBlanks.whitespace.trimming(fields[2])).\(ASCIIBlanks.whitespace.trimming(fields[3]))"
                reason += "; decimal commas? write \(first),\(second)"
            }
            throw QueryPointError(reason)
        }
        if order == .longitudeFirst { fields.swapAt(0, 1) }
        try self.init(latitude: String(fields[0]), longitude: String(fields[1]), order: order)
    }

    /// The latitude for JSON output: the text as given when it is a JSON number, else the
    /// value written by `JSONWriter.number` (`+34` becomes `34`).
    package var jsonLatitude: String { QueryPoint.jsonNumber(latitudeText, coordinate.latitude) }

    /// The longitude for JSON output (see `jsonLatitude`).
    package var jsonLongitude: String { QueryPoint.jsonNumber(longitudeText, coordinate.longitude) }

    /// The number and the hemisphere letter of `34.0N`, `N34.0`, `116.0 W` or `116.0°W`
    /// (the letter upper-cased; nil when there is none).
    static func hemisphere(_ text: String) -> (number: String, letter: Character?) {
        var rest = Substring(text)
        var letter: Character?
        if let last = rest.last, "NSEWnsew".contains(last) {
            letter = Character(last.uppercased())
            rest = rest.dropLast()
        } else if let first = rest.first, "NSEWnsew".contains(first) {
            letter = Character(first.uppercased())
            rest = rest.dropFirst()
        }
        guard letter != nil else { return (text, nil) }
        rest = ASCIIBlanks.whitespace.trimming(rest)
        if rest.hasSuffix("°") { rest = rest.dropLast() }
        rest = ASCIIBlanks.whitespace.trimming(rest)
        // A letter beside a number only: `not` is a word, not N and "ot".
        guard !rest.isEmpty, rest.allSatisfy({ $0.isASCII && ($0.isNumber || "+-.,".contains($0)) }) else { return (text, nil) }
        return (String(rest), letter)
    }

    /// The value with the sign its hemisphere letter gives: N and E positive, S and W negative;
    /// a letter of the other axis, or a sign beside a letter, is refused.
    private static func signed(
        _ value: Double, _ letter: Character?, positive: Character, negative: Character, text: String, name: String
    ) throws(QueryPointError) -> Double {
        guard let letter else { return value }
        let shown = TerminalText.singleQuoted(text.count > 40 ? String(text.prefix(40)) + "…" : text)
        guard letter == positive || letter == negative else {
            throw QueryPointError("\(name) \(shown): \(letter) is not a hemisphere of a \(name) (\(positive) or \(negative))")
        }
        guard value >= 0, !text.contains("-"), !text.contains("+") else {
            throw QueryPointError("\(name) \(shown): a sign and a hemisphere letter together; write one of them")
        }
        return letter == negative ? -value : value
    }

    private static func degrees(_ text: String, name: String) throws(QueryPointError) -> Double {
        let shown = text.count > 40 ? String(text.prefix(40)) + "…" : text
        if text.isEmpty { throw QueryPointError("\(name) is missing") }
        let lowered = text.lowercased()
        if ["nan", "+nan", "-nan", "inf", "+inf", "-inf", "infinity", "+infinity", "-infinity"].contains(lowered) {
            throw QueryPointError("\(name) '\(shown)' is not a finite number")
        }
        guard text.allSatisfy({ $0.isASCII && ($0.isNumber || "+-.eE".contains($0)) }), let value = Double(text) else {
            let hint = hasDecimalComma(text) ? " (write \(withDecimalPoint(text)): decimal commas only when both numbers have one)" : ""
            throw QueryPointError("\(name) \(TerminalText.singleQuoted(shown)) is not a number\(hint)")
        }
        guard value.isFinite else { throw QueryPointError("\(name) '\(shown)' is not a finite number") }
        return value
    }

    /// "; did you mean 34,-116? (order is latitude,longitude)" when the latitude is out of range
    /// but the two swapped would be a position; "" otherwise.
    private static func orderHint(_ coordinate: Coordinate, _ latitudeText: String, _ longitudeText: String, _ order: Order) -> String {
        guard abs(coordinate.latitude) > 90, abs(coordinate.latitude) <= 180, abs(coordinate.longitude) <= 90 else { return "" }
        switch order {
        case .latitudeFirst:
            return "; did you mean \(longitudeText),\(latitudeText)? (order is latitude,longitude)"
        case .longitudeFirst:
            return "; did you mean \(latitudeText),\(longitudeText)? (order is longitude,latitude, as the header says)"
        }
    }

    /// `34,5` or `-116,2`: digits, one comma, digits (an optional sign first), no point.
    static func hasDecimalComma(_ text: some StringProtocol) -> Bool {
        let text = ASCIIBlanks.whitespace.trimming(text)
        let unsigned = text.first == "-" || text.first == "+" ? text.dropFirst() : text[...]
        let parts = unsigned.split(separator: ",", omittingEmptySubsequences: false)
        return parts.count == 2 && parts.allSatisfy { !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isNumber } }
    }

    private static func isWholeNumber(_ text: Substring) -> Bool {
        let text = ASCIIBlanks.whitespace.trimming(text)
        let unsigned = text.first == "-" || text.first == "+" ? text.dropFirst() : text[...]
        return !unsigned.isEmpty && unsigned.allSatisfy { $0.isASCII && $0.isNumber }
    }

    private static func withDecimalPoint(_ text: String) -> String {
        String(text.map { $0 == "," ? "." : $0 })
    }

    private static func jsonNumber(_ text: String, _ value: Double) -> String {
        JSONNumberGrammar.matches(text) ? text : JSONWriter.number(value)
    }
}

/// Why a query position cannot be read.
package struct QueryPointError: LandmarkNearError, Sendable, Equatable {
    package var description: String
    /// `.badData` (an unreadable line of input); the tool treats its own arguments as usage.
    package var kind: ErrorKind { .badData }
    package init(_ description: String) { self.description = description }
}
