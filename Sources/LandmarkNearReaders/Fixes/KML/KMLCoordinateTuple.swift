@_spi(Inlining) import LandmarkNearCore

/// One KML coordinate: `lon,lat[,alt]` in a `<coordinates>` list, or `lon lat [alt]` in a
/// `gx:coord` (KML 2.2 writes them differently).
///
///     KMLCoordinateTuple.parse(Array("-122.36,37.82,0".utf8)[...], separator: ",")   // .success(37.82, -122.36)
enum KMLCoordinateTuple {
    static func parse(_ token: ArraySlice<UInt8>, separator: UInt8) -> Result<Coordinate, KMLTupleError> {
        let parts = token.split(separator: separator, omittingEmptySubsequences: separator == 0x20)
        let shown = String(decoding: token.prefix(64), as: UTF8.self) + (token.count > 64 ? "…" : "")
        guard parts.count == 2 || parts.count == 3 else {
            return .failure(KMLTupleError(message: "coordinate \"\(shown)\" is not lon,lat[,alt]"))
        }
        guard let longitude = Array(parts[0]).withUnsafeBufferPointer({ DecimalNumber.parse($0) }),
            let latitude = Array(parts[1]).withUnsafeBufferPointer({ DecimalNumber.parse($0) })
        else {
            return .failure(KMLTupleError(message: "coordinate \"\(shown)\" is not lon,lat[,alt]"))
        }
        let coordinate = Coordinate(latitude: latitude, longitude: longitude)
        if let reason = coordinate.invalidReason { return .failure(KMLTupleError(message: reason)) }
        return .success(coordinate)
    }
}

struct KMLTupleError: Error {
    var message: String
}
