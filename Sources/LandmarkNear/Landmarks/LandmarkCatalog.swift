import Foundation

/// The landmarks as loaded, in file order: a landmark's position here is its `landmarkIndex`.
///
///     let catalog = LandmarkCatalog.embedded
///     catalog[1].name                 // "Silver Salmon Creek"
///     catalog.index(ofID: 1002)       // 1
public struct LandmarkCatalog: Sendable, Equatable {
    public let landmarks: [Landmark]
    private let indexByID: [Int: Int]

    /// Validates the entries (unique ids, finite in-range coordinates, non-empty names) and
    /// refuses the whole catalog when any is bad, listing up to 20 of the problems.
    public init(_ landmarks: [Landmark], source: String = "catalog") throws(CatalogError) {
        var problems = CatalogProblems(source: source)
        try self.init(landmarks, entries: Array(landmarks.indices), problems: &problems, locate: { _ in nil })
    }

    /// Validates `landmarks` (entry `entries[i]` of the file each), adding to the problems the
    /// format found, and throws them all when there are any.
    init(
        _ landmarks: [Landmark], entries: [Int], problems: inout CatalogProblems,
        locate: (Int) -> String?
    ) throws(CatalogError) {
        let source = problems.source
        var indexByID: [Int: Int] = [:]
        indexByID.reserveCapacity(landmarks.count)
        for (index, landmark) in landmarks.enumerated() {
            let entry = entries[index]
            if landmark.name.unicodeScalars.allSatisfy(\.properties.isWhitespace) {
                problems.add(CatalogError(source: source, entry: entry, id: landmark.id, reason: "has no name"))
            }
            if let reason = landmark.coordinate.invalidReason {
                problems.add(CatalogError(source: source, entry: entry, id: landmark.id, reason: reason))
            }
            if let earlier = indexByID[landmark.id] {
                problems.add(
                    CatalogError(
                        source: source, entry: entry, id: landmark.id,
                        reason: "duplicates the id of entry \(entries[earlier])"))
            } else {
                indexByID[landmark.id] = index
            }
        }
        if let error = problems.error(locate: locate) { throw error }
        self.landmarks = landmarks
        self.indexByID = indexByID
    }

    public var count: Int { landmarks.count }
    public var isEmpty: Bool { landmarks.isEmpty }

    public subscript(index: Int) -> Landmark { landmarks[index] }

    /// The landmark at `index`, or nil when the index is out of range.
    public func landmark(at index: Int) -> Landmark? {
        landmarks.indices.contains(index) ? landmarks[index] : nil
    }

    /// The `landmarkIndex` of the landmark with this id.
    public func index(ofID id: Int) -> Int? { indexByID[id] }

    /// Indices of the landmarks flagged `isFavorite`.
    public var favoriteIndices: [Int] {
        landmarks.indices.filter { landmarks[$0].isFavorite }
    }

    public static func == (lhs: LandmarkCatalog, rhs: LandmarkCatalog) -> Bool {
        lhs.landmarks == rhs.landmarks
    }
}
