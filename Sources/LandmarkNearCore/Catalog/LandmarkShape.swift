/// A landmark that is a place rather than a point: an area (one or more polygons, each a shell
/// and its holes) or a line (one or more paths), in WGS84 degrees. Edges are geodesics between
/// consecutive vertices; rings are closed (their last position repeats the first). A ring bounds
/// the smaller of the two regions it divides the globe into, whichever way it winds.
///
///     let lake = LandmarkShape.areas([[[
///         Coordinate(latitude: 48.70, longitude: -113.55), Coordinate(latitude: 48.70, longitude: -113.40),
///         Coordinate(latitude: 48.66, longitude: -113.40), Coordinate(latitude: 48.70, longitude: -113.55),
///     ]]])
///     lake.kind          // .polygon
///     lake.vertexCount   // 3 (closing positions not counted)
public enum LandmarkShape: Sendable, Hashable {
    /// Polygons: each is its rings, the shell first, then its holes.
    case areas([[[Coordinate]]])
    /// Paths: each is its vertices in order.
    case lines([[Coordinate]])

    /// What a landmark is, as `landmarks` shows it.
    public enum Kind: String, Sendable {
        case point, polygon, line
    }

    public var kind: Kind {
        switch self {
        case .areas: .polygon
        case .lines: .line
        }
    }

    /// The vertices, each ring's closing position (a repeat of its first) not counted.
    public var vertexCount: Int {
        switch self {
        case .areas(let polygons):
            polygons.reduce(0) { total, rings in total + rings.reduce(0) { $0 + max(0, $1.count - 1) } }
        case .lines(let paths):
            paths.reduce(0) { $0 + $1.count }
        }
    }

    /// Every position, rings' closing ones included, in order.
    package var allPositions: [Coordinate] {
        switch self {
        case .areas(let polygons): polygons.flatMap { $0.flatMap { $0 } }
        case .lines(let paths): paths.flatMap { $0 }
        }
    }
}
