import CLinux
@_spi(Inlining) import LandmarkNearCore

#if canImport(Glibc)
import Glibc
#endif

/// The favourites near a point, for the engine's candidate cache: a grid of 0.25° cells, each
/// listing the favourites whose reach (radius + slack) may touch it. A query returns a
/// superset of the favourites within the reach — every one that a chord test cannot rule out —
/// with no GEOS call and no geodesic: a device's first fix (a new device) then costs a hash
/// lookup and a few dot products instead of an index query with exact distances.
///
/// The cells of a favourite come from the spherical bounds of `UnitVector` (geodesic
/// distances are within 1% of spherical ones): a point at geodesic distance <= d lies within
/// the great-circle angle θ = d / (R0 (1 − margin)), hence |Δφ| <= θ, and by the haversine
/// formula hav Δλ <= hav θ / (cos φ₁ cos φ₂). A favourite whose cells would be too many (a
/// huge radius, near a pole) goes on a short list checked on every query; when that list is
/// long, `isUsable` is false and the engine uses its index instead.
struct FavoriteGrid {
    static let cellDegrees = 0.25
    static let rows = 720, columns = 1440
    /// Favourites spanning more cells than this go on the always-checked list.
    static let maximumCellsPerFavorite = 64
    static let maximumWideFavorites = 64

    /// The favourites of cell c are `lists[cellStarts[c] ..< cellStarts[c + 1]]`: one array of
    /// 4 MB rather than a dictionary of the occupied cells, whose hashing is most of a new
    /// device's candidate query, and whose arrays, one a cell, most of building the grid
    /// (measured; see Benchmarks/LOG.md).
    private var cellStarts: [Int32]
    private var lists: [Int32] = []
    private var wide: [Int32] = []
    /// The squared chord beyond which a favourite is surely out of reach: one for all when
    /// every favourite has the same reach (`chordLimits` empty), else one each.
    private let chordLimit: Double
    private let chordLimits: [Double]
    let isUsable: Bool

    /// `reaches[i]`: how far from `coordinates[i]` the favourite may matter (its radius and
    /// slack, and for a place the cap that holds it).
    init(vectors: [UnitVector], coordinates: [Coordinate], reaches: [Double]) {
        let uniform = reaches.allSatisfy { $0 == reaches.first }
        chordLimit = UnitVector.squaredChord(surelyBeyond: reaches.first ?? 0)
        chordLimits = uniform ? [] : reaches.map { UnitVector.squaredChord(surelyBeyond: $0) }
        var wide: [Int32] = []
        // The cells of each favourite that is not wide, as (first row, last row, first column,
        // column count); counted per cell, then laid out in favourite order.
        var spans: [(favorite: Int32, firstRow: Int, lastRow: Int, firstColumn: Int, columnCount: Int)] = []
        spans.reserveCapacity(coordinates.count)
        for (position, coordinate) in coordinates.enumerated() {
            let favorite = Int32(position)
            let angle = reaches[position] / (UnitVector.meanRadius * (1 - UnitVector.margin)) * (1 + 1e-9)
            let angleDegrees = angle * 180 / .pi
            let halfAngleSine = sin(angle / 2)
            let south = coordinate.latitude - angleDegrees
            let north = coordinate.latitude + angleDegrees
            guard angle < .pi / 2, south > -90, north < 90 else { wide.append(favorite); continue }
            let cosine = cos(max(abs(south), abs(north)) * .pi / 180)
            let haversine = halfAngleSine * halfAngleSine / (cosine * cosine)
            guard haversine < 1 else { wide.append(favorite); continue }
            let longitudeDegrees = 2 * asin(haversine.squareRoot()) * 180 / .pi * (1 + 1e-9)
            let firstRow = FavoriteGrid.row(south)
            let lastRow = FavoriteGrid.row(north)
            let firstColumn = Int(((coordinate.longitude - longitudeDegrees + 180) / FavoriteGrid.cellDegrees).rounded(.down))
            let lastColumn = Int(((coordinate.longitude + longitudeDegrees + 180) / FavoriteGrid.cellDegrees).rounded(.down))
            let columnCount = min(lastColumn - firstColumn + 1, FavoriteGrid.columns)
            guard (lastRow - firstRow + 1) * columnCount <= FavoriteGrid.maximumCellsPerFavorite else {
                wide.append(favorite)
                continue
            }
            spans.append((favorite, firstRow, lastRow, firstColumn, columnCount))
        }
        func forEachCell(of span: (favorite: Int32, firstRow: Int, lastRow: Int, firstColumn: Int, columnCount: Int), _ body: (Int) -> Void)
        {
            // The first column taken around the world once; then each step wraps at most once.
            let columns = FavoriteGrid.columns
            let first = (span.firstColumn % columns + columns) % columns
            for row in span.firstRow...span.lastRow {
                var column = first
                for _ in 0..<span.columnCount {
                    body(row * columns + column)
                    column += 1
                    if column == columns { column = 0 }
                }
            }
        }
        let cellCount = FavoriteGrid.rows * FavoriteGrid.columns
        var starts = [Int32](repeating: 0, count: cellCount + 1)
        for span in spans { forEachCell(of: span) { starts[$0 + 1] += 1 } }
        for cell in 0..<cellCount { starts[cell + 1] += starts[cell] }
        var next = starts
        var lists = [Int32](repeating: 0, count: Int(starts[cellCount]))
        for span in spans {
            forEachCell(of: span) { cell in
                lists[Int(next[cell])] = span.favorite
                next[cell] += 1
            }
        }
        cellStarts = starts
        self.lists = lists
        self.wide = wide
        isUsable = wide.count <= FavoriteGrid.maximumWideFavorites
    }

    private static func row(_ latitude: Double) -> Int {
        min(rows - 1, max(0, Int(((latitude + 90) / cellDegrees).rounded(.down))))
    }

    private static func cell(of coordinate: Coordinate) -> Int32 {
        var column = Int(((coordinate.longitude + 180) / cellDegrees).rounded(.down))
        if column >= columns { column -= columns }
        return Int32(row(coordinate.latitude) * columns + max(0, column))
    }

    /// Asks the CPU to fetch the start of each hinted coordinate's cell (a hint, nothing else).
    /// The 4 MB of cell starts outgrow the caches, and with many devices moving over the world
    /// the load of a cell's start is most of `candidates` (measured; see Benchmarks/LOG.md).
    func prefetch(near upcoming: ArraySlice<FixLookahead>) {
        cellStarts.withUnsafeBufferPointer { starts in
            for hint in upcoming where hint.coordinate.isValid {
                landmark_prefetch(starts.baseAddress! + Int(FavoriteGrid.cell(of: hint.coordinate)))
            }
        }
    }

    /// Appends the favourites (positions) that may be within the reach of `point`.
    func candidates(near coordinate: Coordinate, point: UnitVector, vectors: [UnitVector], into found: inout [Int32]) {
        let cell = Int(FavoriteGrid.cell(of: coordinate))
        if chordLimits.isEmpty {
            for index in Int(cellStarts[cell])..<Int(cellStarts[cell + 1]) {
                let favorite = lists[index]
                if point.squaredChord(to: vectors[Int(favorite)]) <= chordLimit { found.append(favorite) }
            }
            for favorite in wide where point.squaredChord(to: vectors[Int(favorite)]) <= chordLimit {
                found.append(favorite)
            }
        } else {
            for index in Int(cellStarts[cell])..<Int(cellStarts[cell + 1]) {
                let favorite = lists[index]
                if point.squaredChord(to: vectors[Int(favorite)]) <= chordLimits[Int(favorite)] { found.append(favorite) }
            }
            for favorite in wide where point.squaredChord(to: vectors[Int(favorite)]) <= chordLimits[Int(favorite)] {
                found.append(favorite)
            }
        }
    }
}
