@_spi(Inlining) import LandmarkNearCore

/// A header line naming the two columns of a `nearest` stream: `lat,lon`, `latitude,longitude`,
/// `"Lat", "Lng"`, `lat lon`, ... (any case, blanks and quotes around the names allowed; `lon`,
/// `lng`, `long` or `longitude` for the longitude). It says the order the lines that follow
/// use: `lon,lat` swaps them.
///
///     QueryHeader.order(of: Array("Latitude, Longitude".utf8))   // .latitudeFirst
///     QueryHeader.order(of: Array("34,-116".utf8))               // nil: not a header
enum QueryHeader {
    static let latitudeNames: Set<String> = ["lat", "latitude"]
    static let longitudeNames: Set<String> = ["lon", "lng", "long", "longitude"]

    /// The order a header line names, or nil when the line is not such a header.
    static func order(of line: some Collection<UInt8>) -> QueryPoint.Order? {
        // A header is short; anything longer is data (or an error QueryPoint explains).
        guard line.count <= 64 else { return nil }
        let text = String(decoding: line, as: UTF8.self)
        let body = ASCIIBlanks.whitespace.trimming(ByteOrderMark.dropped(from: Substring(text)))
        let fields =
            body.contains(",")
            ? body.split(separator: ",", omittingEmptySubsequences: false)
            : body.split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard fields.count == 2 else { return nil }
        let names = fields.map { field in
            String(field.trimmingPrefix(while: isBlankOrQuote).reversed().drop(while: isBlankOrQuote).reversed()).lowercased()
        }
        if latitudeNames.contains(names[0]), longitudeNames.contains(names[1]) { return .latitudeFirst }
        if longitudeNames.contains(names[0]), latitudeNames.contains(names[1]) { return .longitudeFirst }
        return nil
    }

    private static func isBlankOrQuote(_ character: Character) -> Bool {
        character == " " || character == "\t" || character == "\"" || character == "'"
    }
}
