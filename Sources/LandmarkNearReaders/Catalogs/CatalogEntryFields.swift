@_spi(Inlining) import LandmarkNearCore

/// The members of an entry (tutorial shape), of its `coordinates`, or of a GeoJSON feature's
/// `properties` that a landmark is made of; a key given twice counts by its last value, as
/// in the parser's objects.
struct CatalogEntryFields {
    typealias Value = CatalogByteScanner.Value
    var id = Value.absent, name = Value.absent
    var latitude = Value.absent, lat = Value.absent
    var longitude = Value.absent, lon = Value.absent, lng = Value.absent
    var isFavorite = Value.absent, favorite = Value.absent, isFeatured = Value.absent
    var category = Value.absent, city = Value.absent, state = Value.absent, park = Value.absent, imageName = Value.absent

    /// Sets the member `key` (in `bytes`); false when no field has that name.
    @inline(__always)
    @discardableResult
    mutating func set(_ key: UnsafeBufferPointer<UInt8>, _ value: Value) -> Bool {
        switch key.count {
        case 2 where Self.matches(key, "id"): id = value
        case 3 where Self.matches(key, "lat"): lat = value
        case 3 where Self.matches(key, "lon"): lon = value
        case 3 where Self.matches(key, "lng"): lng = value
        case 4 where Self.matches(key, "name"): name = value
        case 4 where Self.matches(key, "city"): city = value
        case 4 where Self.matches(key, "park"): park = value
        case 5 where Self.matches(key, "state"): state = value
        case 8 where Self.matches(key, "latitude"): latitude = value
        case 8 where Self.matches(key, "favorite"): favorite = value
        case 8 where Self.matches(key, "category"): category = value
        case 9 where Self.matches(key, "longitude"): longitude = value
        case 9 where Self.matches(key, "imageName"): imageName = value
        case 10 where Self.matches(key, "isFavorite"): isFavorite = value
        case 10 where Self.matches(key, "isFeatured"): isFeatured = value
        default: return false
        }
        return true
    }

    /// Whether `key` starts with `word` (its length is checked by the caller). A loop, not
    /// `memcmp`: keys are a few bytes, and the call cost more than the comparison.
    @inline(__always)
    static func matches(_ key: UnsafeBufferPointer<UInt8>, _ word: StaticString) -> Bool {
        let start = key.baseAddress!
        let expected = word.utf8Start
        for k in 0..<word.utf8CodeUnitCount where start[k] != expected[k] { return false }
        return true
    }

    /// Appends the landmark these fields make (`CatalogFields.landmark`) to `columns`; false
    /// when the full path would refuse it or might read it otherwise (no name, a text of
    /// another type is fine: it reads as absent).
    @inline(__always)
    func append(
        to columns: inout CatalogColumns, id: Int, coordinate: Coordinate, scanner: CatalogByteScanner
    ) -> Bool {
        let name = scanner.columnText(self.name)
        guard name.isPresent else { return false }
        columns.append(
            id: id, coordinate: coordinate,
            isFavorite: scanner.flag(isFavorite, favorite), isFeatured: scanner.flag(isFeatured), name: name,
            category: scanner.columnText(category), city: scanner.columnText(city), state: scanner.columnText(state),
            park: scanner.columnText(park), imageName: scanner.columnText(imageName))
        return true
    }
}
