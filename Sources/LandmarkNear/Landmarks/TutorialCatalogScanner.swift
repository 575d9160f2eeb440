import Glibc

/// The fast path of tutorial-JSON catalogs (`[{"id": 1001, "name": …, "coordinates":
/// {"latitude": …, "longitude": …}, …}, …]`): one pass over the bytes straight into
/// `Landmark`s, without the document tree of `JSONParser` (which costs most of the load and
/// several times the file's size in memory).
///
/// Like the NDJSON fix scanner, it decides nothing it is not sure of: it returns nil as soon as
/// the file is anything but a valid array of flat objects (strings, numbers, booleans, null;
/// `coordinates` a flat object; keys without escapes), or an entry would be refused (no name, an id
/// or a coordinate of the wrong type), and the loader then takes the full parser, which gives
/// the same entries or the error with its message. Where it returns landmarks they are those
/// of `TutorialCatalogFormat` over `JSONParser`'s tree (`CatalogReaderEquivalenceTests`):
/// a key given twice counts by its last value, `latitude` wins over `lat`, `isFavorite` over
/// `favorite`, and a `coordinates` that is not an object means the entry's own keys.
///
///     TutorialCatalogScanner.landmarks(in: bytes)   // [Landmark] or nil
enum TutorialCatalogScanner {
    typealias Bytes = UnsafeBufferPointer<UInt8>

    /// One scalar JSON value as scanned.
    enum Value {
        case absent, null
        case bool(Bool)
        case number(Double)
        case string(Range<Int>)
        /// A string that had escapes (`T\"boli`), decoded.
        case decoded(String)
    }

    /// The members of an entry (or of its `coordinates`) that a landmark is made of.
    struct Fields {
        var id = Value.absent, name = Value.absent
        var latitude = Value.absent, lat = Value.absent
        var longitude = Value.absent, lon = Value.absent, lng = Value.absent
        var isFavorite = Value.absent, favorite = Value.absent, isFeatured = Value.absent
        var category = Value.absent, city = Value.absent, state = Value.absent, park = Value.absent, imageName = Value.absent

        mutating func set(_ key: Bytes, _ value: Value) {
            switch key.count {
            case 2 where matches(key, "id"): id = value
            case 3 where matches(key, "lat"): lat = value
            case 3 where matches(key, "lon"): lon = value
            case 3 where matches(key, "lng"): lng = value
            case 4 where matches(key, "name"): name = value
            case 4 where matches(key, "city"): city = value
            case 4 where matches(key, "park"): park = value
            case 5 where matches(key, "state"): state = value
            case 8 where matches(key, "latitude"): latitude = value
            case 8 where matches(key, "favorite"): favorite = value
            case 8 where matches(key, "category"): category = value
            case 9 where matches(key, "longitude"): longitude = value
            case 9 where matches(key, "imageName"): imageName = value
            case 10 where matches(key, "isFavorite"): isFavorite = value
            case 10 where matches(key, "isFeatured"): isFeatured = value
            default: break
            }
        }
    }

    static func landmarks(in body: Bytes) -> [Landmark]? {
        var scanner = Scanner(bytes: body)
        var landmarks: [Landmark] = []
        landmarks.reserveCapacity(body.count / 128)
        scanner.skipSpace()
        guard scanner.take(UInt8(ascii: "[")) else { return nil }
        scanner.skipSpace()
        if scanner.take(UInt8(ascii: "]")) {
            scanner.skipSpace()
            return scanner.atEnd ? landmarks : nil
        }
        while true {
            guard let landmark = scanner.entry(index: landmarks.count) else { return nil }
            landmarks.append(landmark)
            scanner.skipSpace()
            if scanner.take(UInt8(ascii: ",")) {
                scanner.skipSpace()
                continue
            }
            guard scanner.take(UInt8(ascii: "]")) else { return nil }
            scanner.skipSpace()
            return scanner.atEnd ? landmarks : nil
        }
    }

    @inline(__always)
    static func matches(_ key: Bytes, _ word: StaticString) -> Bool {
        memcmp(key.baseAddress!, word.utf8Start, word.utf8CodeUnitCount) == 0
    }

    struct Scanner {
        let bytes: Bytes
        var i = 0

        var atEnd: Bool { i == bytes.count }

        @inline(__always) mutating func skipSpace() {
            while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x0A || bytes[i] == 0x0D || bytes[i] == 0x09 { i += 1 }
        }

        @inline(__always) mutating func take(_ byte: UInt8) -> Bool {
            guard i < bytes.count, bytes[i] == byte else { return false }
            i += 1
            return true
        }

        /// A string without escapes or control characters, from its opening quote; its
        /// contents' range (UTF-8 checked by the caller when it becomes a String).
        @inline(__always) mutating func string() -> Range<Int>? {
            guard take(UInt8(ascii: "\"")) else { return nil }
            let start = i
            var ascii = true
            // Eight bytes at a time while none is a quote, a backslash, a control character
            // or non-ASCII (SWAR: a byte b is flagged when b < 0x20, b ^ '"' < 1, b ^ '\\' < 1
            // or its high bit is set).
            let base = bytes.baseAddress!
            while i + 8 <= bytes.count {
                let word = UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
                let ones: UInt64 = 0x0101_0101_0101_0101
                let highs: UInt64 = 0x8080_8080_8080_8080
                let quote = word ^ (ones &* 0x22)
                let backslash = word ^ (ones &* 0x5C)
                let flagged = ((word &- ones &* 0x20) | (quote &- ones) | (backslash &- ones) | word) & highs
                if flagged != 0 { break }
                i += 8
            }
            while i < bytes.count {
                let byte = bytes[i]
                if byte == UInt8(ascii: "\"") {
                    i += 1
                    // The parser refuses invalid UTF-8 in any string, key or value.
                    if !ascii, String(validating: Bytes(rebasing: bytes[start..<(i - 1)]), as: UTF8.self) == nil { return nil }
                    return start..<(i - 1)
                }
                if byte < 0x20 || byte == UInt8(ascii: "\\") { return nil }
                if byte >= 0x80 { ascii = false }
                i += 1
            }
            return nil
        }

        /// A string value with escapes, decoded as the parser decodes it; nil for a lone or
        /// invalid surrogate, a bad escape, a control character or invalid UTF-8 (the parser's
        /// errors).
        mutating func escapedString() -> String? {
            guard take(UInt8(ascii: "\"")) else { return nil }
            var utf8: [UInt8] = []
            while i < bytes.count {
                let byte = bytes[i]
                i += 1
                switch byte {
                case UInt8(ascii: "\""):
                    return String(validating: utf8, as: UTF8.self)
                case UInt8(ascii: "\\"):
                    guard i < bytes.count else { return nil }
                    let escape = bytes[i]
                    i += 1
                    if let simple = JSONEscape.simple(escape) {
                        utf8.append(simple)
                    } else if escape == UInt8(ascii: "u") {
                        guard var scalar = hex4() else { return nil }
                        if JSONEscape.isHighSurrogate(scalar) {
                            guard take(UInt8(ascii: "\\")), take(UInt8(ascii: "u")), let low = hex4(), JSONEscape.isLowSurrogate(low) else {
                                return nil
                            }
                            scalar = JSONEscape.scalar(high: scalar, low: low)
                        } else if JSONEscape.isLowSurrogate(scalar) {
                            return nil
                        }
                        JSONEscape.appendUTF8(of: scalar, to: &utf8)
                    } else {
                        return nil
                    }
                case 0x00..<0x20:
                    return nil
                default:
                    utf8.append(byte)
                }
            }
            return nil
        }

        private mutating func hex4() -> UInt32? {
            guard let value = JSONEscape.hexQuad(in: bytes, at: i) else { return nil }
            i += 4
            return value
        }

        @inline(__always) mutating func literal(_ word: StaticString) -> Bool {
            let length = word.utf8CodeUnitCount
            guard i + length <= bytes.count, memcmp(bytes.baseAddress! + i, word.utf8Start, length) == 0 else { return false }
            i += length
            return true
        }

        /// A scalar value; nil for anything else (an object or array, bad syntax).
        @inline(__always) mutating func scalar() -> Value? {
            guard i < bytes.count else { return nil }
            switch bytes[i] {
            case UInt8(ascii: "\""):
                let start = i
                if let range = string() { return .string(range) }
                i = start
                return escapedString().map { .decoded($0) }
            case UInt8(ascii: "t"): return literal("true") ? .bool(true) : nil
            case UInt8(ascii: "f"): return literal("false") ? .bool(false) : nil
            case UInt8(ascii: "n"): return literal("null") ? .null : nil
            default:
                guard let end = JSONNumberGrammar.end(ofNumberIn: bytes, from: i),
                    let value = DecimalNumber.parseJSON(Bytes(rebasing: bytes[i..<end]))
                else { return nil }
                i = end
                return .number(value)
            }
        }

        /// The members of a flat object starting at `{`, into `fields`; `nested` gets the
        /// `coordinates` member when it is a flat object (whose own `coordinates` is ignored
        /// like any unknown key).
        mutating func object(into fields: inout Fields, nested: UnsafeMutablePointer<Fields>?, hasNested: inout Bool) -> Bool {
            guard take(UInt8(ascii: "{")) else { return false }
            skipSpace()
            if take(UInt8(ascii: "}")) { return true }
            while true {
                skipSpace()
                guard let key = string() else { return false }
                skipSpace()
                guard take(UInt8(ascii: ":")) else { return false }
                skipSpace()
                let keyBytes = Bytes(rebasing: bytes[key])
                if i < bytes.count, bytes[i] == UInt8(ascii: "{") {
                    guard let nested, key.count == 11, TutorialCatalogScanner.matches(keyBytes, "coordinates") else { return false }
                    // A later "coordinates" replaces an earlier one, as the parser's last-wins lookup does.
                    nested.pointee = Fields()
                    var ignored = false
                    guard object(into: &nested.pointee, nested: nil, hasNested: &ignored) else { return false }
                    hasNested = true
                } else {
                    guard let value = scalar() else { return false }
                    // A landmark's own radius (SPEC 1) is the full reader's to interpret.
                    if key.count == 6, TutorialCatalogScanner.matches(keyBytes, "radius") { return false }
                    if nested != nil, key.count == 11, TutorialCatalogScanner.matches(keyBytes, "coordinates") {
                        hasNested = false  // not an object: the entry's own keys count
                    }
                    fields.set(keyBytes, value)
                }
                skipSpace()
                if take(UInt8(ascii: ",")) { continue }
                return take(UInt8(ascii: "}"))
            }
        }

        /// One entry as `TutorialCatalogFormat` would make it, or nil when it would refuse it
        /// (or the scanner cannot tell).
        mutating func entry(index: Int) -> Landmark? {
            var fields = Fields()
            var coordinates = Fields()
            var hasCoordinates = false
            guard object(into: &fields, nested: &coordinates, hasNested: &hasCoordinates) else { return nil }
            let id: Int
            switch fields.id {
            case .absent, .null: id = index + 1
            case .number(let d):
                guard let integral = JSONValue.number(d).integer else { return nil }
                id = integral
            default: return nil  // a string id, or a boolean: the full path decides
            }
            let place = hasCoordinates ? coordinates : fields
            guard let latitude = degrees(place.latitude, place.lat),
                let longitude = degrees(place.longitude, place.lon, place.lng),
                let name = text(fields.name)
            else { return nil }
            return Landmark(
                id: id, name: name, coordinate: Coordinate(latitude: latitude, longitude: longitude),
                isFavorite: flag(fields.isFavorite, fields.favorite), isFeatured: flag(fields.isFeatured),
                category: text(fields.category), city: text(fields.city), state: text(fields.state),
                park: text(fields.park), imageName: text(fields.imageName))
        }

        /// A number (the first of the aliases present); nil for anything the full path may refuse.
        /// (Fixed arities: a variadic list would allocate an array per call.)
        @inline(__always)
        private func degrees(_ first: Value, _ second: Value, _ third: Value = .absent) -> Double? {
            if case .absent = first {
                if case .absent = second { return degrees(third) }
                return degrees(second)
            }
            return degrees(first)
        }

        @inline(__always)
        private func degrees(_ value: Value) -> Double? {
            if case .number(let d) = value { return d }
            return nil
        }

        /// `CatalogFields.flag` of the first present of `first`, `second`.
        @inline(__always)
        private func flag(_ first: Value, _ second: Value = .absent) -> Bool {
            let value: Value
            if case .absent = first { value = second } else { value = first }
            switch value {
            case .absent, .null: return false
            case .bool(let b): return b
            case .number(let d): return d != 0
            case .string(let range): return CSVLine.boolean(String(decoding: Bytes(rebasing: bytes[range]), as: UTF8.self)) ?? false
            case .decoded(let text): return CSVLine.boolean(text) ?? false
            }
        }

        /// The string value as a String (nil for any other type; its UTF-8 was checked).
        private func text(_ value: Value) -> String? {
            switch value {
            case .string(let range): return String(decoding: Bytes(rebasing: bytes[range]), as: UTF8.self)
            case .decoded(let text): return text
            default: return nil
            }
        }
    }
}
