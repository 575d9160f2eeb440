/// One answer of a `LandmarkIndex` query: a landmark's position in the indexed array (its
/// `landmarkIndex` for a catalog) and its geodesic distance in metres.
///
///     LandmarkNeighbor(index: 0, distance: 1234.5)
public struct LandmarkNeighbor: Sendable, Hashable {
    public var index: Int
    /// WGS84 geodesic distance in metres.
    public var distance: Double

    public init(index: Int, distance: Double) {
        self.index = index
        self.distance = distance
    }

    /// The order of every answer list: nearer first, then the lower index.
    @inlinable public static func precedes(_ a: LandmarkNeighbor, _ b: LandmarkNeighbor) -> Bool {
        a.distance < b.distance || (a.distance == b.distance && a.index < b.index)
    }
}
