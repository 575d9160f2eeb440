/// The landmarks of a catalog, column by column: ids, coordinates, flags, and every text of a
/// landmark packed into one byte record. A `Landmark` is made only when one is asked for.
///
/// Why: a `Landmark` value is 160 bytes plus a heap String for each text over 15 bytes, and
/// issue 10 bounds a 144k-place load at 48 MB peak RSS, most of it the process itself. Here a
/// landmark takes about 45 bytes (the figures: Benchmarks/LOG.md).
///
/// A record is the name (a LEB128 length, then its UTF-8), a byte whose bits say which of
/// category, city, state, park and imageName follow, and each of those (length, UTF-8).
///
///     var columns = CatalogColumns()
///     columns.append(landmark)
///     columns.landmark(at: 0) == landmark    // true
@_spi(Inlining) public struct CatalogColumns: Sendable {
    /// Each landmark's id; empty once `compactIDs` found them to be `firstID`, `firstID + 1`, ...
    @usableFromInline var ids: [Int] = []
    private var firstID = 0
    @usableFromInline var coordinates: [Coordinate] = []
    /// Bit 0: isFavorite; bit 1: isFeatured; bit 2: vacant (a landmark deleted while `serve` ran:
    /// its position stays, empty, so that later indexes never shift).
    @usableFromInline var flags: [UInt8] = []
    /// Where each landmark's record ends in `text` (it starts where the one before ends).
    @usableFromInline var ends: [UInt32] = []
    @usableFromInline var text: [UInt8] = []
    /// Each landmark's own radius; empty while none has one.
    @usableFromInline var radii: [Length?] = []
    /// Each landmark's place (area or line); empty while none has one.
    private(set) var shapes: [LandmarkShape?] = []
    /// The text outgrew the 4 GiB that `ends` can address (the catalog is then refused).
    @usableFromInline var isTooLarge = false

    @_spi(Inlining) public init() {}

    @_spi(Inlining) public var count: Int { coordinates.count }

    func id(at index: Int) -> Int { ids.isEmpty ? firstID + index : ids[index] }

    /// Drops the ids column when the ids count up by one from the first (most catalogs: 1, 2,
    /// 3, ...): 8 bytes a landmark less while the index is built, when loading peaks.
    mutating func compactIDs() {
        guard let first = ids.first, ids.count == coordinates.count else { return }
        for (index, id) in ids.enumerated() {
            let (expected, overflow) = first.addingReportingOverflow(index)
            if overflow || id != expected { return }
        }
        firstID = first
        ids = []
    }

    @_spi(Inlining) public mutating func reserveCapacity(_ landmarks: Int, textBytes: Int) {
        ids.reserveCapacity(landmarks)
        coordinates.reserveCapacity(landmarks)
        flags.reserveCapacity(landmarks)
        ends.reserveCapacity(landmarks)
        text.reserveCapacity(textBytes)
    }

    /// One of the texts of a landmark as a reader has it: bytes of its input (valid UTF-8)
    /// or a decoded String.
    @_spi(Inlining) public enum Text {
        case none
        case bytes(UnsafeBufferPointer<UInt8>)
        case string(String)

        @_spi(Inlining) public var isPresent: Bool {
            if case .none = self { return false }
            return true
        }
    }

    @_spi(Inlining) public mutating func append(_ landmark: Landmark) {
        append(
            id: landmark.id, coordinate: landmark.coordinate, isFavorite: landmark.isFavorite, isFeatured: landmark.isFeatured,
            name: .string(landmark.name), category: Text(landmark.category), city: Text(landmark.city),
            state: Text(landmark.state), park: Text(landmark.park), imageName: Text(landmark.imageName),
            radius: landmark.radius)
        if let shape = landmark.shape { setLastShape(shape) }
    }

    /// The place of the landmark appended last.
    @_spi(Inlining) public mutating func setLastShape(_ shape: LandmarkShape) {
        if shapes.count < count - 1 { shapes.append(contentsOf: repeatElement(nil, count: count - 1 - shapes.count)) }
        if shapes.count == count { shapes[count - 1] = shape } else { shapes.append(shape) }
    }

    /// The landmark's place, nil for a point.
    func shape(at index: Int) -> LandmarkShape? { index < shapes.count ? shapes[index] : nil }

    /// (Only before `compactIDs`.)
    @inlinable
    @_spi(Inlining) public mutating func append(
        id: Int, coordinate: Coordinate, isFavorite: Bool, isFeatured: Bool, name: Text,
        category: Text = .none, city: Text = .none, state: Text = .none, park: Text = .none,
        imageName: Text = .none, radius: Length? = nil
    ) {
        ids.append(id)
        coordinates.append(coordinate)
        flags.append((isFavorite ? 1 : 0) | (isFeatured ? 2 : 0))
        var mask: UInt8 = 0
        if category.isPresent { mask |= 1 }
        if city.isPresent { mask |= 2 }
        if state.isPresent { mask |= 4 }
        if park.isPresent { mask |= 8 }
        if imageName.isPresent { mask |= 16 }
        if !appendRecord(name, mask, category, city, state, park, imageName) {
            write(name)
            text.append(mask)
            if mask != 0 {
                write(category)
                write(city)
                write(state)
                write(park)
                write(imageName)
            }
        }
        if text.count > UInt32.max {
            isTooLarge = true
            text.removeAll()
        }
        ends.append(UInt32(truncatingIfNeeded: text.count))
        if let radius {
            if radii.isEmpty { radii = Array(repeating: nil, count: ids.count - 1) }
            radii.append(radius)
        } else if !radii.isEmpty {
            radii.append(nil)
        }
    }

    /// Appends the landmarks of `other`, the second half of a catalog scanned in two
    /// (`ParallelCatalogScan`): afterwards the columns are those one scan of the whole would
    /// have made. The ids at `renumbered` (positions in `other`) were numbered by position
    /// there, and move up by the landmarks before it. Each of `other`'s columns is let go of
    /// once copied, so that the merge holds one of them twice at most. (Only before
    /// `compactIDs`.)
    @_spi(Inlining) public mutating func append(_ other: consuming CatalogColumns, renumbering renumbered: some Sequence<Int>) {
        let before = count
        let otherCount = other.count
        let textBefore = text.count
        ids.append(contentsOf: other.ids)
        other.ids = []
        for position in renumbered { ids[before + position] += before }
        coordinates.append(contentsOf: other.coordinates)
        other.coordinates = []
        flags.append(contentsOf: other.flags)
        other.flags = []
        if isTooLarge || other.isTooLarge || textBefore + other.text.count > UInt32.max {
            isTooLarge = true
            text.removeAll()
        } else {
            text.append(contentsOf: other.text)
        }
        other.text = []
        let shift = UInt32(truncatingIfNeeded: textBefore)
        ends.append(contentsOf: other.ends.lazy.map { $0 &+ shift })
        other.ends = []
        if !other.shapes.isEmpty {
            if shapes.count < before { shapes.append(contentsOf: repeatElement(nil, count: before - shapes.count)) }
            shapes.append(contentsOf: other.shapes)
            other.shapes = []
        }
        if !radii.isEmpty || !other.radii.isEmpty {
            if radii.isEmpty { radii = Array(repeating: nil, count: before) }
            if other.radii.isEmpty {
                radii.append(contentsOf: repeatElement(nil, count: otherCount))
            } else {
                radii.append(contentsOf: other.radii)
            }
        }
    }

    /// The record of texts that are all bytes of the input (as the catalog scanners give
    /// them), made on the stack (at most 769 bytes) and appended at once; false, with nothing
    /// appended, for a String among them or a text of 128 bytes or more, whose length takes
    /// more than a byte (`write` then appends the record piece by piece).
    /// Why: appending the record's pieces one by one (a length, its bytes, ...) pays each
    /// append's checks (measured: a tenth of scanning a tutorial catalog; see Benchmarks/LOG.md).
    @inlinable @inline(__always)
    mutating func appendRecord(
        _ name: Text, _ mask: UInt8, _ category: Text, _ city: Text, _ state: Text, _ park: Text, _ imageName: Text
    ) -> Bool {
        @inline(__always) func size(_ value: Text) -> Int? {
            switch value {
            case .none: return 0
            case .bytes(let bytes): return bytes.count < 0x80 ? 1 + bytes.count : nil
            case .string: return nil
            }
        }
        guard let nameSize = size(name), let a = size(category), let b = size(city), let c = size(state), let d = size(park),
            let e = size(imageName)
        else { return false }
        let total = nameSize + 1 + a + b + c + d + e
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: total) { record in
            var at = 0
            @inline(__always) func put(_ value: Text) {
                guard case .bytes(let bytes) = value else { return }
                record[at] = UInt8(bytes.count)  // under 0x80: one byte of LEB128
                at += 1
                if let source = bytes.baseAddress {
                    UnsafeMutableRawPointer(record.baseAddress.unsafelyUnwrapped + at).copyMemory(from: source, byteCount: bytes.count)
                }
                at += bytes.count
            }
            put(name)
            record[at] = mask
            at += 1
            put(category)
            put(city)
            put(state)
            put(park)
            put(imageName)
            text.append(contentsOf: UnsafeBufferPointer(record))
        }
        return true
    }

    @usableFromInline
    mutating func write(_ value: Text) {
        switch value {
        case .none: return
        case .bytes(let bytes):
            writeLength(bytes.count)
            text.append(contentsOf: bytes)
        case .string(var string):
            string.withUTF8 { bytes in
                writeLength(bytes.count)
                text.append(contentsOf: bytes)
            }
        }
    }

    @usableFromInline
    mutating func writeLength(_ length: Int) {
        var rest = UInt(length)
        while rest >= 0x80 {
            text.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        text.append(UInt8(rest))
    }

    // MARK: Reading

    func isFavorite(at index: Int) -> Bool { flags[index] & 1 != 0 }

    func isVacant(at index: Int) -> Bool { flags[index] & 4 != 0 }

    /// Empties position `index`: no longer a favourite, featured or listed; its id stays taken.
    mutating func vacate(_ index: Int) { flags[index] = 4 }

    func radius(at index: Int) -> Length? { radii.isEmpty ? nil : radii[index] }

    /// The name's UTF-8, handed to `body`.
    func withName<R>(at index: Int, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        text.withUnsafeBufferPointer { text in
            var cursor = index == 0 ? 0 : Int(ends[index - 1])
            let length = Self.length(text, &cursor)
            return body(UnsafeBufferPointer(rebasing: text[cursor..<(cursor + length)]))
        }
    }

    func name(at index: Int) -> String {
        withName(at: index) { String(decoding: $0, as: UTF8.self) }
    }

    func landmark(at index: Int) -> Landmark {
        text.withUnsafeBufferPointer { text in
            var cursor = index == 0 ? 0 : Int(ends[index - 1])
            func next() -> String {
                let length = Self.length(text, &cursor)
                defer { cursor += length }
                return String(decoding: UnsafeBufferPointer(rebasing: text[cursor..<(cursor + length)]), as: UTF8.self)
            }
            let name = next()
            let mask = text[cursor]
            cursor += 1
            let flag = flags[index]
            var landmark = Landmark(
                id: id(at: index), name: name, coordinate: coordinates[index],
                isFavorite: flag & 1 != 0, isFeatured: flag & 2 != 0, radius: radius(at: index), shape: shape(at: index))
            if mask != 0 {
                if mask & 1 != 0 { landmark.category = next() }
                if mask & 2 != 0 { landmark.city = next() }
                if mask & 4 != 0 { landmark.state = next() }
                if mask & 8 != 0 { landmark.park = next() }
                if mask & 16 != 0 { landmark.imageName = next() }
            }
            return landmark
        }
    }

    @inline(__always)
    private static func length(_ text: UnsafeBufferPointer<UInt8>, _ cursor: inout Int) -> Int {
        var length = 0
        var shift = 0
        while true {
            let byte = text[cursor]
            cursor += 1
            length |= Int(byte & 0x7F) << shift
            if byte < 0x80 { return length }
            shift += 7
        }
    }
}

extension CatalogColumns.Text {
    init(_ string: String?) {
        if let string { self = .string(string) } else { self = .none }
    }
}
