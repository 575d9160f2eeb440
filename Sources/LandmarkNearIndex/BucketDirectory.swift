import Foundation
@_spi(Inlining) import LandmarkNearCore
@_spi(Inlining) import LandmarkNearGeodesy

/// A grid of latitude/longitude cells over the world that lists, for each cell, the buckets whose
/// boxes meet it, and names one landmark near the cell ("its witness"): the small-cap side of
/// `LandmarkIndex`, in front of GEOS's tree.
///
/// Why: building a GEOS query geometry and walking the tree costs a query about as much as the
/// whole target time of a 5-mile search (measured; see Benchmarks/LOG.md). A cap that spans a few
/// cells takes its buckets from those cells' lists instead, a few loads a cell; larger caps still
/// ask the tree, which stays the index of record (every bucket box is in it, and any cap can be
/// asked of it).
///
/// Exactness: a bucket is listed in every cell its box meets (`row(of:)` and `column(of:)` are
/// the same monotone functions for boxes and queries), so a box that meets a cap box meets it in
/// one of the cells the cap box spans. Each bucket is reported once: in the cell holding the
/// south-west corner of its box's intersection with the cap box (a point that lies in the box,
/// in the cap box and in exactly one cell).
///
/// The witness is an upper bound, not an answer: the chord from a query to its cell's witness
/// bounds the nearest landmark's chord, so `nearest` can ask for one cap that surely holds the
/// answer instead of growing one. Witnesses start as the landmark nearest each cell's centre
/// among those in the cell, then spread to empty cells by a raster sweep each way (every cell
/// takes a neighbour's witness when it is nearer its centre) — a chamfer-style distance
/// transform, good to about a cell.
///
///     let directory = BucketDirectory.from(boxes: boxes, points: points, slotCoordinates: slots, rows: 90)
///     directory.cell(latitude: 48.85, longitude: 2.35)   // the cell's number
///
/// A class, not a struct: the index holds it by one reference, where a struct's three arrays
/// are retained and released on every use (measured; see Benchmarks/LOG.md).
final class BucketDirectory {
    /// Rows of `180 / rows` degrees from the south pole, columns of as many degrees from -180°.
    struct Grid {
        let rows: Int
        let columns: Int
        let rowsPerDegree: Double
        let columnsPerDegree: Double

        init(rows: Int) {
            self.rows = rows
            columns = 2 * rows
            rowsPerDegree = Double(rows) / 180
            columnsPerDegree = Double(2 * rows) / 360
        }

        /// Monotone in the latitude (90° in the last row), like `column(ofLongitude:)`.
        @inline(__always) func row(ofLatitude latitude: Double) -> Int {
            min(rows - 1, max(0, Int((latitude + 90) * rowsPerDegree)))
        }

        @inline(__always) func column(ofLongitude longitude: Double) -> Int {
            min(columns - 1, max(0, Int((longitude + 180) * columnsPerDegree)))
        }

        @inline(__always) func cell(latitude: Double, longitude: Double) -> Int {
            row(ofLatitude: latitude) * columns + column(ofLongitude: longitude)
        }
    }

    let grid: Grid
    /// Cell k's buckets are `buckets[offsets[k] ..< offsets[k + 1]]`.
    private let offsets: UnsafeBufferPointer<Int32>
    private let buckets: UnsafeBufferPointer<Int32>
    /// Each cell's witness slot (-1 when there are no landmarks).
    private let witnesses: UnsafeBufferPointer<Int32>
    /// The z of each row's southern edge (`rows + 1`: the last is the north pole's), for
    /// `holdsChordBall`.
    private let rowEdgeZ: UnsafeBufferPointer<Double>
    /// The sine and cosine of each column's western edge (`columns + 1`: the last is 180°'s),
    /// after one another.
    private let columnEdges: UnsafeBufferPointer<Double>

    /// - Parameters:
    ///   - boxes: each bucket's box (as given to the tree).
    ///   - points: the slots' Earth-centred points, x, y, z after one another.
    ///   - slotCoordinates: the slots' coordinates.
    ///   - rows: latitude rows (columns are twice as many).
    ///   - findsWitnesses: false for a directory whose `witness(ofCell:)` is never asked (each
    ///     cell's is then -1).
    convenience init(
        boxes: [GeoBox], points: UnsafeBufferPointer<Double>, slotCoordinates: UnsafeBufferPointer<Coordinate>, rows: Int,
        findsWitnesses: Bool = true
    ) {
        self.init(
            Lists(boxes: boxes, points: points, slotCoordinates: slotCoordinates, rows: rows, findsWitnesses: findsWitnesses))
    }

    /// What a directory is made of that takes time to make (its cells' lists and witnesses), as
    /// plain arrays: a value another thread can make (`LandmarkIndex.init` makes it beside the
    /// index's other tables).
    struct Lists: Sendable {
        let rows: Int
        /// Cell k's buckets are `buckets[offsets[k] ..< offsets[k + 1]]`.
        let offsets: [Int32]
        let buckets: [Int32]
        let witnesses: [Int32]

        /// The parameters are those of `BucketDirectory.init(boxes:points:slotCoordinates:rows:findsWitnesses:)`.
        init(
            boxes: [GeoBox], points: UnsafeBufferPointer<Double>, slotCoordinates: UnsafeBufferPointer<Coordinate>, rows: Int,
            findsWitnesses: Bool
        ) {
            precondition(rows >= 1)
            let grid = Grid(rows: rows)
            self.rows = rows
            let columns = grid.columns
            let cellCount = rows * columns
            // Lists, counted first, then filled (compressed rows: one array for all cells).
            var counts = [Int32](repeating: 0, count: cellCount + 1)
            var spans: [(rows: ClosedRange<Int>, columns: ClosedRange<Int>)] = []
            spans.reserveCapacity(boxes.count)
            for box in boxes {
                let span = (
                    rows: grid.row(ofLatitude: box.minLatitude)...grid.row(ofLatitude: box.maxLatitude),
                    columns: grid.column(ofLongitude: box.minLongitude)...grid.column(ofLongitude: box.maxLongitude)
                )
                spans.append(span)
                for r in span.rows {
                    for c in span.columns { counts[r * columns + c + 1] += 1 }
                }
            }
            for k in 0..<cellCount { counts[k + 1] += counts[k] }
            var fill = counts
            var lists = [Int32](repeating: 0, count: Int(counts[cellCount]))
            for (bucket, span) in spans.enumerated() {
                for r in span.rows {
                    for c in span.columns {
                        let k = r * columns + c
                        lists[Int(fill[k])] = Int32(bucket)
                        fill[k] += 1
                    }
                }
            }
            offsets = counts
            buckets = lists
            witnesses =
                findsWitnesses
                ? BucketDirectory.spreadWitnesses(grid: grid, points: points, slotCoordinates: slotCoordinates)
                : [Int32](repeating: -1, count: cellCount)
        }
    }

    /// The directory of `lists`, in memory of its own.
    init(_ lists: Lists) {
        let grid = Grid(rows: lists.rows)
        self.grid = grid
        let rows = grid.rows
        let columns = grid.columns
        offsets = .ownedCopy(of: lists.offsets)
        buckets = .ownedCopy(of: lists.buckets)
        witnesses = .ownedCopy(of: lists.witnesses)
        let e2 = EllipsoidConstants.eccentricitySquared
        rowEdgeZ = .owned(count: rows + 1) { r in
            let phi = (Double(r) / grid.rowsPerDegree - 90) * (Double.pi / 180)
            return EllipsoidConstants.equatorialRadius / (1 - e2 * sin(phi) * sin(phi)).squareRoot() * (1 - e2) * sin(phi)
        }
        columnEdges = .owned(repeating: 0, count: 2 * (columns + 1)) { edges in
            for c in 0...columns {
                let lambda = (Double(c) / grid.columnsPerDegree - 180) * (Double.pi / 180)
                edges[2 * c] = sin(lambda)
                edges[2 * c + 1] = cos(lambda)
            }
        }
    }

    /// The same from arrays (the tests'); the directory keeps nothing of them.
    static func from(boxes: [GeoBox], points: [Double], slotCoordinates: [Coordinate], rows: Int) -> BucketDirectory {
        points.withUnsafeBufferPointer { points in
            slotCoordinates.withUnsafeBufferPointer { slots in
                BucketDirectory(boxes: boxes, points: points, slotCoordinates: slots, rows: rows)
            }
        }
    }

    deinit {
        offsets.freeOwned()
        buckets.freeOwned()
        witnesses.freeOwned()
        rowEdgeZ.freeOwned()
        columnEdges.freeOwned()
    }

    /// The bytes the directory holds (its arrays' capacities).
    var approximateByteCount: Int {
        (offsets.count + buckets.count + witnesses.count) * MemoryLayout<Int32>.stride
            + (rowEdgeZ.count + columnEdges.count) * MemoryLayout<Double>.stride
    }

    /// Whether every surface point within `chord` (straight-line distance) of `query`, a point
    /// of cell `k`, lies in cell `k`, by a millimetre at least: then every landmark there is in a
    /// bucket the cell lists. Cheaper than testing the cap's cover (`CapCover`) within the cell,
    /// whose trigonometry costs a search near a city (measured; see Benchmarks/LOG.md), and a
    /// little coarser.
    ///
    /// Why it holds: a cell is a band between two parallels and a wedge between two meridians.
    /// Latitude grows with z (z = N(1 − e²) sin φ), so a point whose z is on the same side of the
    /// parallel's z as the query's is on the same side of the parallel; z changes by at most the
    /// chord between two points. The distance to a meridian's plane, q·(−sin λ, cos λ, 0), changes
    /// by at most the chord too, so a point within `chord` stays on the query's side of both
    /// planes, which (a wedge of at most 180°) is the wedge. The millimetre is far above the
    /// rounding of the edges (nanometres) and keeps each landmark's own row and column (from its
    /// coordinates, as the lists were made) on the query's side: a millimetre is 10⁻⁸ degrees.
    /// The false answers (near an edge or a pole, or across ±180°) only send the search on.
    @inline(__always) func holdsChordBall(_ chord: Double, around query: EarthCenteredPoint, inCell k: Int) -> Bool {
        let columns = grid.columns
        let r = k / columns
        let c = k - r * columns
        let reach = chord + 1e-3
        guard query.z - rowEdgeZ[r] > reach, rowEdgeZ[r + 1] - query.z > reach else { return false }
        let westSine = columnEdges[2 * c]
        let westCosine = columnEdges[2 * c + 1]
        let eastSine = columnEdges[2 * c + 2]
        let eastCosine = columnEdges[2 * c + 3]
        return query.y * westCosine - query.x * westSine > reach && query.x * eastSine - query.y * eastCosine > reach
    }

    /// The witness slot of cell `k` (-1 for an empty index).
    @inline(__always) func witness(ofCell k: Int) -> Int { Int(witnesses[k]) }

    /// The buckets listed in cell `k` (those whose boxes meet it).
    @inline(__always) func withBuckets<R>(ofCell k: Int, _ body: (UnsafeBufferPointer<Int32>) -> R) -> R {
        body(UnsafeBufferPointer(rebasing: buckets[Int(offsets[k])..<Int(offsets[k + 1])]))
    }

    /// The cells a box spans, found once for the three steps that need them (counting its
    /// cells, then its entries, then listing its buckets).
    struct Span {
        let firstRow: Int
        let lastRow: Int
        let firstColumn: Int
        let lastColumn: Int

        var cellCount: Int { (lastRow - firstRow + 1) * (lastColumn - firstColumn + 1) }
    }

    @inline(__always) func span(of box: GeoBox) -> Span {
        Span(
            firstRow: grid.row(ofLatitude: box.minLatitude), lastRow: grid.row(ofLatitude: box.maxLatitude),
            firstColumn: grid.column(ofLongitude: box.minLongitude), lastColumn: grid.column(ofLongitude: box.maxLongitude))
    }

    /// The number of list entries of the cells `box` spans (room for `appendBuckets`).
    func entryCount(of box: GeoBox) -> Int { entryCount(of: span(of: box)) }

    /// The number of list entries of the cells of `span`.
    @inline(__always) func entryCount(of span: Span) -> Int {
        var total = 0
        for r in span.firstRow...span.lastRow {
            let base = r * grid.columns
            total += Int(offsets[base + span.lastColumn + 1] - offsets[base + span.firstColumn])
        }
        return total
    }

    /// Appends to `out` (from `count` on) every bucket whose box meets `box`, each once, and
    /// returns the new count. `out` has room for `entryCount(of: box)` more. With `skipping`,
    /// buckets whose box also meets that box are left out (the other half of a cap split at ±180°,
    /// already reported).
    func appendBuckets(
        meeting box: GeoBox, boxes: UnsafeBufferPointer<GeoBox>, skipping other: GeoBox? = nil,
        into out: UnsafeMutableBufferPointer<Int32>, count: Int
    ) -> Int {
        appendBuckets(meeting: box, span(of: box), boxes: boxes, skipping: other, into: out, count: count)
    }

    /// `appendBuckets` with the box's `span`.
    @inline(__always)
    func appendBuckets(
        meeting box: GeoBox, _ span: Span, boxes: UnsafeBufferPointer<GeoBox>, skipping other: GeoBox? = nil,
        into out: UnsafeMutableBufferPointer<Int32>, count: Int
    ) -> Int {
        var n = count
        let grid = grid
        let columns = grid.columns
        let firstColumn = span.firstColumn
        let lastColumn = span.lastColumn
        if other == nil, firstColumn == lastColumn, span.firstRow == span.lastRow {
            // One cell (most 5-mile caps): each of its buckets is listed once, and one that meets
            // the box meets it in this cell, so no corner needs finding (measured; see
            // Benchmarks/LOG.md).
            let k = span.firstRow * columns + firstColumn
            let lists = buckets
            for entry in Int(offsets[k])..<Int(offsets[k + 1]) {
                let bucket = lists[entry]
                let b = boxes[Int(bucket)]
                guard b.minLongitude <= box.maxLongitude, box.minLongitude <= b.maxLongitude,
                    b.minLatitude <= box.maxLatitude, box.minLatitude <= b.maxLatitude
                else { continue }
                out[n] = bucket
                n += 1
            }
            return n
        }
        do {
            let lists = buckets
            do {
                for r in span.firstRow...span.lastRow {
                    for c in firstColumn...lastColumn {
                        let k = r * columns + c
                        for entry in Int(offsets[k])..<Int(offsets[k + 1]) {
                            let bucket = lists[entry]
                            let b = boxes[Int(bucket)]
                            // The intersection's south-west corner, if they meet.
                            let west = max(box.minLongitude, b.minLongitude)
                            let south = max(box.minLatitude, b.minLatitude)
                            guard west <= min(box.maxLongitude, b.maxLongitude),
                                south <= min(box.maxLatitude, b.maxLatitude),
                                grid.row(ofLatitude: south) == r, grid.column(ofLongitude: west) == c
                            else { continue }
                            if let other, b.minLongitude <= other.maxLongitude, other.minLongitude <= b.maxLongitude,
                                b.minLatitude <= other.maxLatitude, other.minLatitude <= b.maxLatitude
                            {
                                continue
                            }
                            out[n] = bucket
                            n += 1
                        }
                    }
                }
            }
        }
        return n
    }

    /// Each cell's witness: seeded by the landmarks in it, spread by sweeps (see the type's notes).
    ///
    /// Each cell keeps its witness's point beside it, and the sweeps read only those cells: read
    /// from the points table (megabytes, in packing order), almost every neighbour's witness
    /// misses the cache (measured; see Benchmarks/LOG.md).
    private static func spreadWitnesses(
        grid: Grid, points: UnsafeBufferPointer<Double>, slotCoordinates: UnsafeBufferPointer<Coordinate>
    ) -> [Int32] {
        let rows = grid.rows
        let columns = grid.columns
        let cellCount = rows * columns
        guard !slotCoordinates.isEmpty else { return [Int32](repeating: -1, count: cellCount) }
        // Cell centres, from each row's and column's trigonometry.
        let e2 = EllipsoidConstants.eccentricitySquared
        var rowAxis = [Double](repeating: 0, count: rows)  // N cos φ
        var rowZ = [Double](repeating: 0, count: rows)  // N (1 − e²) sin φ
        for r in 0..<rows {
            let phi = (-90 + (Double(r) + 0.5) * 180 / Double(rows)) * (Double.pi / 180)
            let n = EllipsoidConstants.equatorialRadius / (1 - e2 * sin(phi) * sin(phi)).squareRoot()
            rowAxis[r] = n * cos(phi)
            rowZ[r] = n * (1 - e2) * sin(phi)
        }
        var columnCos = [Double](repeating: 0, count: columns)
        var columnSin = [Double](repeating: 0, count: columns)
        for c in 0..<columns {
            let lambda = (-180 + (Double(c) + 0.5) * 360 / Double(columns)) * (Double.pi / 180)
            columnCos[c] = cos(lambda)
            columnSin[c] = sin(lambda)
        }
        var seeds = [WitnessSeed](repeating: WitnessSeed(), count: cellCount)
        seeds.withUnsafeMutableBufferPointer { seeds in
            for slot in 0..<slotCoordinates.count {
                let k = grid.cell(latitude: slotCoordinates[slot].latitude, longitude: slotCoordinates[slot].longitude)
                let r = k / columns
                let c = k - r * columns
                let candidate = WitnessSeed(
                    slot: Int32(slot), x: points[3 * slot], y: points[3 * slot + 1], z: points[3 * slot + 2])
                let d = candidate.squaredChord(rowAxis[r] * columnCos[c], rowAxis[r] * columnSin[c], rowZ[r])
                if d < seeds[k].best {
                    seeds[k] = candidate
                    seeds[k].best = d
                }
            }
            // Cell k takes neighbour n's witness when it is nearer k's centre (cx, cy, cz).
            @inline(__always) func consider(_ k: Int, _ cx: Double, _ cy: Double, _ cz: Double, from n: Int) {
                let neighbour = seeds[n]
                guard neighbour.slot >= 0, neighbour.slot != seeds[k].slot else { return }
                let d = neighbour.squaredChord(cx, cy, cz)
                if d < seeds[k].best {
                    seeds[k] = neighbour
                    seeds[k].best = d
                }
            }
            // Cell (r, c) with c taken around the world (c is -1 ... columns).
            @inline(__always) func cell(_ r: Int, _ c: Int) -> Int {
                r * columns + (c < 0 ? c + columns : (c >= columns ? c - columns : c))
            }
            // One sweep each way: a second pair costs a load as much again and saves a query
            // almost nothing (measured; see Benchmarks/LOG.md).
            for r in 0..<rows {
                for c in 0..<columns {
                    let k = r * columns + c
                    let cx = rowAxis[r] * columnCos[c]
                    let cy = rowAxis[r] * columnSin[c]
                    let cz = rowZ[r]
                    consider(k, cx, cy, cz, from: cell(r, c - 1))
                    guard r > 0 else { continue }
                    consider(k, cx, cy, cz, from: cell(r - 1, c - 1))
                    consider(k, cx, cy, cz, from: cell(r - 1, c))
                    consider(k, cx, cy, cz, from: cell(r - 1, c + 1))
                }
            }
            for r in stride(from: rows - 1, through: 0, by: -1) {
                for c in stride(from: columns - 1, through: 0, by: -1) {
                    let k = r * columns + c
                    let cx = rowAxis[r] * columnCos[c]
                    let cy = rowAxis[r] * columnSin[c]
                    let cz = rowZ[r]
                    consider(k, cx, cy, cz, from: cell(r, c + 1))
                    guard r + 1 < rows else { continue }
                    consider(k, cx, cy, cz, from: cell(r + 1, c + 1))
                    consider(k, cx, cy, cz, from: cell(r + 1, c))
                    consider(k, cx, cy, cz, from: cell(r + 1, c - 1))
                }
            }
        }
        return seeds.map(\.slot)
    }
}

/// A cell's witness while `spreadWitnesses` works: its slot (-1: none yet), its Earth-centred
/// point, and its squared chord to the cell's centre.
private struct WitnessSeed {
    var slot: Int32 = -1
    var best = Double.infinity
    var x = 0.0
    var y = 0.0
    var z = 0.0

    init() {}

    init(slot: Int32, x: Double, y: Double, z: Double) {
        self.slot = slot
        self.x = x
        self.y = y
        self.z = z
    }

    /// The squared chord from the witness to (cx, cy, cz).
    @inline(__always) func squaredChord(_ cx: Double, _ cy: Double, _ cz: Double) -> Double {
        let dx = cx - x
        let dy = cy - y
        let dz = cz - z
        return dx * dx + dy * dy + dz * dz
    }
}
