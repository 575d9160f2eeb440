/// A query position as the user wrote it: the coordinate, and the two numbers' text so that an
/// answer can echo them unchanged (`34.0` stays `34.0`).
///
///     let point = try QueryPoint(latitude: "34.0", longitude: "-116")
///     point.coordinate            // 34.0,-116.0
///     point.jsonLatitude          // "34.0"
package struct QueryPoint: Sendable, Equatable {
    package var coordinate: Coordinate
    package var latitudeText: String
    package var longitudeText: String

    /// Parses a latitude and a longitude in decimal degrees (`-33.9`, `151.2`, `1e1`), finite
    /// and in range.
    package init(latitude: String, longitude: String) throws(QueryPointError) {
        let latitudeText = String(ASCIIBlanks.whitespace.trimming(latitude))
        let longitudeText = String(ASCIIBlanks.whitespace.trimming(longitude))
        let lat = try QueryPoint.degrees(latitudeText, name: "latitude")
        let lon = try QueryPoint.degrees(longitudeText, name: "longitude")
        let coordinate = Coordinate(latitude: lat, longitude: lon)
        if let reason = coordinate.invalidReason { throw QueryPointError(reason) }
        self.coordinate = coordinate
        self.latitudeText = latitudeText
        self.longitudeText = longitudeText
    }

    /// Parses one input line: `lat,lon` (spaces allowed around the numbers), or the two numbers
    /// separated by blanks. Returns nil for a line to skip: blank, or a `#` comment.
    package init?(line: some StringProtocol) throws(QueryPointError) {
        let text = String(ASCIIBlanks.whitespace.trimming(ByteOrderMark.dropped(from: Substring(line))))
        if text.isEmpty || text.hasPrefix("#") { return nil }
        let fields: [Substring]
        if text.contains(",") {
            fields = text.split(separator: ",", omittingEmptySubsequences: false)
        } else {
            fields = text.split(whereSeparator: { $0 == " " || $0 == "\t" })
        }
        guard fields.count == 2 else {
            throw QueryPointError("expected 'lat,lon' (two numbers), found \(fields.count) field\(fields.count == 1 ? "" : "s")")
        }
        try self.init(latitude: String(fields[0]), longitude: String(fields[1]))
    }

    /// The latitude for JSON output: the text as given when it is a JSON number, else the
    /// value written by `JSONWriter.number` (`+34` becomes `34`).
    package var jsonLatitude: String { QueryPoint.jsonNumber(latitudeText, coordinate.latitude) }

    /// The longitude for JSON output (see `jsonLatitude`).
    package var jsonLongitude: String { QueryPoint.jsonNumber(longitudeText, coordinate.longitude) }

    private static func degrees(_ text: String, name: String) throws(QueryPointError) -> Double {
        let shown = text.count > 40 ? String(text.prefix(40)) + "…" : text
        if text.isEmpty { throw QueryPointError("\(name) is missing") }
        let lowered = text.lowercased()
        if ["nan", "+nan", "-nan", "inf", "+inf", "-inf", "infinity", "+infinity", "-infinity"].contains(lowered) {
            throw QueryPointError("\(name) '\(shown)' is not a finite number")
        }
        guard text.allSatisfy({ $0.isASCII && ($0.isNumber || "+-.eE".contains($0)) }), let value = Double(text) else {
            throw QueryPointError("\(name) '\(TerminalText.safe(shown))' is not a number")
        }
        guard value.isFinite else { throw QueryPointError("\(name) '\(shown)' is not a finite number") }
        return value
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

