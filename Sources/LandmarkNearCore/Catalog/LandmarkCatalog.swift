/// The landmarks as loaded, in file order: a landmark's position here is its `landmarkIndex`.
///
///     let catalog = LandmarkCatalog.embedded
///     catalog[1].name                 // "Silver Salmon Creek"
///     catalog.index(ofID: 1002)       // 1
///
/// The landmarks are kept column by column (`CatalogColumns`); `catalog[i]` makes the
/// `Landmark`, and `coordinate(at:)`, `id(at:)`, `name(at:)` and `coordinates` read one field
/// without making it.
public struct LandmarkCatalog: Sendable, Equatable {
    private var columns: CatalogColumns
    private let ids: IDLookup

    /// How ids are found: most catalogs number their entries in increasing order, and then
    /// no table is needed (a binary search over the ids column).
    private enum IDLookup: Sendable {
        case increasing
        case table([Int: Int32])
    }

    /// Validates the entries (unique ids, finite in-range coordinates, non-empty names) and
    /// refuses the whole catalog when any is bad, listing up to 20 of the problems.
    public init(_ landmarks: [Landmark], source: String = "catalog") throws(CatalogError) {
        var problems = CatalogProblems(source: source)
        var columns = CatalogColumns()
        columns.reserveCapacity(landmarks.count, textBytes: landmarks.count * 16)
        for landmark in landmarks { columns.append(landmark) }
        try self.init(columns, entries: nil, problems: &problems, locate: { _ in nil })
    }

    /// Validates `columns` (landmark `i` is entry `entries[i]` of the file; nil: entry `i`),
    /// adding to the problems the format found, and throws them all when there are any.
    package init(
        _ columns: CatalogColumns, entries: [Int]?, problems: inout CatalogProblems,
        locate: (Int) -> String?
    ) throws(CatalogError) {
        let source = problems.source
        if columns.isTooLarge {
            throw CatalogError(source: source, reason: "holds more than 4 GiB of landmark text")
        }
        let ids = columns.ids.isEmpty ? (0..<columns.count).map(columns.id(at:)) : columns.ids
        var increasing = true
        for index in ids.indices.dropFirst() where ids[index] <= ids[index - 1] {
            increasing = false
            break
        }
        // Increasing ids have no duplicate; otherwise the first entry of each id is found by a table.
        var table: [Int: Int32] = [:]
        if !increasing { table.reserveCapacity(ids.count) }
        let valid = columns.coordinates.allSatisfy(\.isValid)
        for index in ids.indices {
            let entry = entries?[index] ?? index
            let id = ids[index]
            if Self.isBlank(columns, index) {
                problems.add(CatalogError(source: source, entry: entry, id: id, reason: "has no name"))
            }
            if !valid, let reason = columns.coordinates[index].invalidReason {
                problems.add(CatalogError(source: source, entry: entry, id: id, reason: reason))
            }
            if !increasing {
                if let earlier = table[id] {
                    let earlierEntry = entries?[Int(earlier)] ?? Int(earlier)
                    problems.add(
                        CatalogError(source: source, entry: entry, id: id, reason: "duplicates the id of entry \(earlierEntry)"))
                } else {
                    table[id] = Int32(truncatingIfNeeded: index)
                }
            }
        }
        if let error = problems.error(locate: locate) { throw error }
        self.columns = columns
        self.ids = increasing ? .increasing : .table(table)
        if increasing { self.columns.compactIDs() }
    }

    /// A name with nothing but white space (or none at all) is no name. Most names start with
    /// an ASCII letter, which settles it without making the String.
    private static func isBlank(_ columns: CatalogColumns, _ index: Int) -> Bool {
        let settled: Bool? = columns.withName(at: index) { bytes in
            guard let first = bytes.first else { return true }
            if first < 0x80, first != 0x20, !(0x09...0x0D).contains(first) { return false }
            return nil
        }
        if let settled { return settled }
        return columns.name(at: index).unicodeScalars.allSatisfy(\.properties.isWhitespace)
    }

    public var count: Int { columns.count }
    package var isEmpty: Bool { columns.count == 0 }

    /// The landmark at `index` (made from the columns on each call).
    public subscript(index: Int) -> Landmark { columns.landmark(at: index) }

    /// The landmark at `index`, or nil when the index is out of range.
    package func landmark(at index: Int) -> Landmark? {
        (0..<count).contains(index) ? columns.landmark(at: index) : nil
    }

    /// The landmarks in order, each made when it is read.
    public var landmarks: Landmarks { Landmarks(catalog: self) }

    /// Every landmark's coordinate, in order (the column itself: no landmark is made).
    ///
    ///     LandmarkIndex(coordinates: catalog.coordinates)
    public var coordinates: [Coordinate] { columns.coordinates }

    /// One field of the landmark at `index`, read without making the `Landmark`.
    ///
    ///     catalog.coordinate(at: 0)   // Coordinate(latitude: 34.011286, longitude: -116.166868)
    package func coordinate(at index: Int) -> Coordinate { columns.coordinates[index] }
    /// `catalog.id(at: 0)`: 1001 in the embedded catalog.
    package func id(at index: Int) -> Int { columns.id(at: index) }
    /// `catalog.name(at: 0)`: "Turtle Rock" in the embedded catalog.
    package func name(at index: Int) -> String { columns.name(at: index) }
    /// The landmark's own radius (catalog key `radius`), nil for the run's.
    package func radius(at index: Int) -> Length? { columns.radius(at: index) }

    /// The landmark's place (area or line), nil for a point.
    package func shape(at index: Int) -> LandmarkShape? { columns.shape(at: index) }

    /// Whether any landmark is an area or a line.
    package var hasShapes: Bool { !columns.shapes.isEmpty }
    /// `catalog.isFavorite(at: 0)`: true in the embedded catalog.
    package func isFavorite(at index: Int) -> Bool { columns.isFavorite(at: index) }

    /// Whether any landmark has its own radius (`LandmarkCatalog.embedded.hasOwnRadii` is false).
    package var hasOwnRadii: Bool { columns.radii.contains { $0 != nil } }

    /// The landmark name's UTF-8 bytes, handed to `body` (no String made).
    package func withName<R>(at index: Int, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        columns.withName(at: index, body)
    }

    /// The `landmarkIndex` of the landmark with this id.
    public func index(ofID id: Int) -> Int? {
        switch ids {
        case .table(let table):
            return table[id].map(Int.init)
        case .increasing:
            var low = 0
            var high = count
            while low < high {
                let middle = (low + high) / 2
                if columns.id(at: middle) < id { low = middle + 1 } else { high = middle }
            }
            return low < count && columns.id(at: low) == id ? low : nil
        }
    }

    /// Whether position `index` is empty: its landmark was deleted at run time (`serve`'s
    /// `DELETE /landmarks/ID`). Nothing matches it and listings omit it; later indexes keep theirs.
    package func isVacant(at index: Int) -> Bool { columns.isVacant(at: index) }

    /// Whether any position is empty (a scan of the flags: once a catalog is made).
    package var hasVacancies: Bool { columns.flags.contains { $0 & 4 != 0 } }

    /// Empties position `index` (see `isVacant(at:)`); its id still finds it.
    package mutating func vacate(_ index: Int) { columns.vacate(index) }

    /// Indices of the landmarks flagged `isFavorite`.
    public var favoriteIndices: [Int] {
        columns.flags.indices.filter { columns.flags[$0] & 1 != 0 }
    }

    public static func == (lhs: LandmarkCatalog, rhs: LandmarkCatalog) -> Bool {
        lhs.landmarks == rhs.landmarks
    }

    /// The landmarks of a catalog as a collection; `Landmark`s are made as they are read.
    ///
    ///     catalog.landmarks.map(\.name)
    public struct Landmarks: RandomAccessCollection, Sendable, Equatable {
        let catalog: LandmarkCatalog

        public var startIndex: Int { 0 }
        public var endIndex: Int { catalog.count }
        public subscript(position: Int) -> Landmark { catalog[position] }

        public static func == (lhs: Landmarks, rhs: Landmarks) -> Bool { lhs.elementsEqual(rhs) }
        package static func == (lhs: Landmarks, rhs: [Landmark]) -> Bool { lhs.elementsEqual(rhs) }
        package static func == (lhs: [Landmark], rhs: Landmarks) -> Bool { lhs.elementsEqual(rhs) }
    }
}
