import CLinux
@_spi(Inlining) import LandmarkNearCore
@_spi(Inlining) import LandmarkNearGeodesy

/// A spatial index of landmark coordinates with two exact geodesic queries: every landmark
/// within a radius, and the k nearest.
///
///     let index = LandmarkIndex(catalog: .embedded)
///     let here = Coordinate(latitude: 34.0, longitude: -116.0)
///     index.nearest(to: here, limit: 1)          // [LandmarkNeighbor(index: 0, distance: 15_465.79…)]
///     index.within(8046.72, of: here)            // [] : Turtle Rock is 15.5 km away
///     index.forEachNearest(of: [here], limit: 1) { position, neighbors in }   // many points, in locality order
///
/// ## What "exact" means
///
/// The same landmarks in the same order as a brute-force scan that measures every landmark with
/// `Geodesic.wgs84.distance` (`geod_inverse`), everywhere: across ±180°, at the poles, for a
/// point on a landmark; ties in distance ordered by index. Each reported distance is within
/// `tolerance(ofDistance:)` of `geod_inverse`'s: 3 µm up to 400 km, 0.1 mm up to 1,000 km,
/// 0.2 mm up to 2,000 km, 1 mm beyond.
///
/// ## The structure (built once, in `init`; queries only read it)
///
/// - **Slots and buckets.** The landmarks are packed by recursive halving into buckets of
///   `bucketSize` neighbours (`BucketPacking`); within a bucket the slots are ordered by the z of
///   their Earth-centred points. Each bucket keeps a bounding sphere (in chord space) and a
///   longitude/latitude box.
/// - **The directory** (`BucketDirectory`): a grid of longitude/latitude cells, each listing the
///   buckets whose boxes meet it, and a coarse one (`coarseCellSide` cells a side) for caps of
///   hundreds of kilometres. Most searches find their buckets here.
/// - **The hierarchy** (`BucketHierarchy`): boxes over groups of buckets, which `nearest` walks
///   nearest first once it has a bound.
/// - **GEOS's STRtree** (`GEOSBoxTree`) over the buckets' boxes: the fallback for the wide caps
///   that span too many of the directories' cells (`directoryCellLimit`, `coarseEntryLimit`).
///   It is not the main path of a search; the directories are.
///
/// Each query has its own file: building (`LandmarkIndex+Build.swift`), `within`
/// (`+Within`), `nearest` (`+Nearest`), measuring a landmark (`+Measure`), and finding and
/// sweeping buckets (`+Buckets`).
///
/// ## Why the answers are exact
///
/// 1. *No landmark is missed.* A search covers its cap (every point within the radius) with
///    `CapCover`'s boxes, which contain the cap (the proof is in `CapCover.swift`: the box grows
///    with latitude, splits at ±180° and reaches a pole when the cap does); every landmark in the
///    cap lies in a bucket whose box meets a cover box, and the directories and the tree list
///    every such bucket. A bucket or a landmark is skipped only by a lower bound: the chord
///    between two points is never longer than their geodesic, and `GeodesicBounds.lower` turns a
///    chord into a distance that the geodesic is at least.
/// 2. *Every measurement carries its error bound.* A landmark that is not skipped is measured
///    with `ShortGeodesic` (from the Earth-centred points) where the chord is short, with its
///    bound `ShortGeodesic.errorBound(chord:)`, and with `geod_inverse` beyond.
/// 3. *No decision rests on an error.* Where a measured distance lies within its bound of the
///    radius, or of another answer's distance (the order could flip), a closer measurement
///    decides: `MidpointGeodesic` (lines up to 2,000 km) or `VincentyGeodesic` (1 mm), each
///    cheaper than the next, where that settles it, else `geod_inverse`. An answer's distance is
///    refined until its bound is within `tolerance(ofDistance:)`.
/// 4. *`nearest` stops only when nothing nearer can remain.* It starts in the point's cell: the
///    chord to the cell's witness and its buckets bound the answer; a cap of that bound is
///    searched (from the directory, or by walking the hierarchy nearest first), and the bound
///    shrinks as buckets are swept; a bucket whose sphere lies beyond the bound cannot hold a
///    nearer landmark.
///
/// The property tests check all of this against the brute-force scan (`LandmarkIndexPropertyTests`).
///
/// The engine's per-device candidate cache uses a grid of its own (`FavoriteGrid`, in the
/// engine): it answers a superset of the favourites near a point from spherical bounds alone,
/// with no geodesic, which the engine then decides exactly. It is not the same idea as this
/// directory, whose answers are exact, so it stays with the engine that relies on its superset.
public final class LandmarkIndex {
    /// Landmarks per bucket (one tree item). 32: a bucket's z fit two 16-lane compares
    /// (`firstSlot`), a scan of its run near the query costs less than another bucket's sphere
    /// test and cache misses, and the tree and the directory hold a 32nd of the landmarks.
    static let bucketSize = 32
    /// Directory cells per bucket: enough that a 5-mile cap usually spans one or two cells whose
    /// lists hold a handful of buckets. More cells save a few per cent of a search for megabytes
    /// more, and a load's memory target is already near (measured; see Benchmarks/LOG.md).
    static let cellsPerBucket = 8.0
    /// `nearest` finds where the sweeps of a search's first this many buckets (the nearest, then
    /// the others in the cap's order: `withRanked`) start before sweeping any
    /// (`gatherReachable`), so that their first points' misses overlap.
    static let startsFound = 8
    /// A cap whose box spans more cells than this asks the coarse directory, and one that spans
    /// more of its cells GEOS's tree, for its buckets.
    static let directoryCellLimit = 24
    /// The coarse directory's cells are this many cells of the directory a side.
    static let coarseCellSide = 8
    /// A cap whose coarse cells list more buckets than this asks GEOS's tree (the best of the
    /// limits tried on the far half of the benchmark's mix; see Benchmarks/LOG.md).
    static let coarseEntryLimit = 256

    /// The largest difference between an answer's distance and `geod_inverse`'s at any
    /// distance, metres: `VincentyGeodesic.errorBound` (1 mm), what lines over 2,000 km are
    /// held to; shorter lines are held to less (`tolerance(ofDistance:)`).
    public static let distanceTolerance = max(ShortGeodesic.errorBound(chord: 100_000), VincentyGeodesic.errorBound)

    /// The largest difference between an answer's `distance` and `geod_inverse`'s, metres:
    /// `ShortGeodesic.errorBound` of a 100 km chord (3 µm) up to 400 km (a chord is never longer
    /// than its geodesic; past 100 km the answer is measured with `MidpointGeodesic`), then
    /// `MidpointGeodesic.errorBound` up to 2,000 km (0.1 mm to 1,000 km, 0.2 mm beyond),
    /// `distanceTolerance` (1 mm) beyond. A reader that prints millimetres asks `geod_inverse`
    /// only where this tolerance could change a digit (`NearestAnswerWriter`).
    ///
    ///     LandmarkIndex.tolerance(ofDistance: 8046.72)   // 3e-6
    ///     LandmarkIndex.tolerance(ofDistance: 750_000)   // 1e-4
    public static func tolerance(ofDistance distance: Double) -> Double {
        if distance <= 100_000 { return nearTolerance }
        if distance <= MidpointGeodesic.longestChord { return max(nearTolerance, MidpointGeodesic.errorBound(chord: distance)) }
        return distanceTolerance
    }

    /// The smallest `tolerance(ofDistance:)`: `ShortGeodesic.errorBound` of a 100 km chord.
    static let nearTolerance = ShortGeodesic.errorBound(chord: 100_000)

    /// The number of indexed landmarks.
    public let count: Int
    /// The coordinates in packing order ("slots").
    let slotCoordinates: UnsafeBufferPointer<Coordinate>
    /// The slots' Earth-centred points, x, y, z after one another.
    let slotPoints: UnsafeBufferPointer<Double>
    /// The slots' z (`slotPoints`' every third) as `Float`: what `firstSlot` searches.
    let slotZ: UnsafeBufferPointer<Float>
    /// Each slot's position in the array given to `init`.
    let slotIndex: UnsafeBufferPointer<Int32>
    /// Each bucket's bounding sphere: centre x, y, z and radius (metres) after one another.
    let bucketSpheres: UnsafeBufferPointer<Double>
    let tree: GEOSBoxTree
    /// Each bucket's box (the tree's items).
    let bucketBoxes: UnsafeBufferPointer<GeoBox>
    /// The cells in front of the tree: small caps take their buckets from it.
    let directory: BucketDirectory
    /// The same over cells `coarseCellSide` times larger a side: for caps of hundreds of
    /// kilometres (mostly `nearest` far from land), so that they need not ask GEOS's tree, whose
    /// walk and allocations are a fifth of such a search (measured; see Benchmarks/LOG.md).
    let coarseDirectory: BucketDirectory
    /// Boxes over groups of buckets: `nearest` walks them once it has a bound from the point's cell.
    let hierarchy: BucketHierarchy
    /// `nearest` walks the hierarchy for caps of at least this radius (metres): half a
    /// directory row's height.
    let smallestWalk: Double
    /// The first search radius of `nearest` when the point's cell holds too few landmarks: about the mean
    /// spacing of the landmarks.
    let firstRadius: Double

    /// The same, on two threads from `parallelFrom` landmarks on (the tests build both ways).
    init(coordinates: [Coordinate], parallelFrom: Int) {
        precondition(coordinates.count < Int(Int32.max), "LandmarkIndex: too many landmarks")
        let size = LandmarkIndex.bucketSize
        count = coordinates.count
        let order = BucketPacking.pack(coordinates, bucketSize: size, parallelFrom: parallelFrom)
        // From here the work is split in two where the set is large (as the packing is): the
        // slots' tables in halves, then the directory's lists and the buckets' spheres on the
        // other thread beside the rest on this one. The price is memory: the arrays the other
        // thread reads are held beside the index's own tables at the peak (the time saved and
        // the memory: Benchmarks/LOG.md).
        let twoThreads = count >= parallelFrom
        let (slotArray, pointArray) = LandmarkIndex.slotTables(coordinates, order, twoThreads: twoThreads)
        var boxes: [GeoBox] = []
        boxes.reserveCapacity(slotArray.count / size + 1)
        for start in stride(from: 0, to: slotArray.count, by: size) {
            boxes.append(GeoBox(enclosing: slotArray[start..<min(slotArray.count, start + size)]))
        }
        // About `cellsPerBucket` cells a bucket, rows of at most 180° and at least 0.1°.
        let rows = Int((Double(boxes.count) * LandmarkIndex.cellsPerBucket / 2).squareRoot().rounded())
        let directoryRows = min(1800, max(1, rows))
        // Only values cross: arrays in, arrays out.
        let side =
            twoThreads
            ? OtherThread { [boxes] in SideTables(boxes: boxes, points: pointArray, slots: slotArray, directoryRows: directoryRows) }
            : nil
        // The tables are made in the index's own memory (queries read them through pointers).
        let points = UnsafeBufferPointer.ownedCopy(of: pointArray)
        slotPoints = points
        let slots = UnsafeBufferPointer.ownedCopy(of: slotArray)
        slotCoordinates = slots
        slotIndex = .ownedCopy(of: order)
        slotZ = .owned(count: count) { Float(points[3 * $0 + 2]) }
        hierarchy = BucketHierarchy(points: points, bucketSize: size)
        tree = GEOSBoxTree(boxes: boxes)
        bucketBoxes = .ownedCopy(of: boxes)
        coarseDirectory = BucketDirectory(
            boxes: boxes, points: points, slotCoordinates: slots, rows: max(1, min(1800, rows) / LandmarkIndex.coarseCellSide),
            findsWitnesses: false)
        let sideTables =
            side?.value() ?? SideTables(boxes: boxes, points: pointArray, slots: slotArray, directoryRows: directoryRows)
        directory = BucketDirectory(sideTables.directory)
        bucketSpheres = .ownedCopy(of: sideTables.spheres)
        smallestWalk = 0.5 * Double.pi * EllipsoidConstants.equatorialRadius / Double(directory.grid.rows)
        let earthArea = 5.1e14
        firstRadius = (earthArea / Double(max(1, count)) / Double.pi).squareRoot()
    }

    /// Indexes `coordinates` (all valid); a neighbour's `index` is its position in this array.
    public convenience init(coordinates: [Coordinate]) {
        self.init(coordinates: coordinates, parallelFrom: LandmarkIndex.parallelFrom)
    }

    deinit {
        slotPoints.freeOwned()
        bucketSpheres.freeOwned()
        slotCoordinates.freeOwned()
        slotZ.freeOwned()
        slotIndex.freeOwned()
        bucketBoxes.freeOwned()
    }

    /// The memory the index holds, in bytes: its tables and directories, and GEOS's tree nodes
    /// (48 bytes each: an envelope, an item and a child pointer) for the bucket leaves and the
    /// levels above them. Allocator overheads are not counted.
    ///
    ///     LandmarkIndex(coordinates: places).approximateByteCount / places.count
    ///     // about 56 on the benchmark's 144,563 places (buckets of 32, the directories)
    package var approximateByteCount: Int {
        var nodes = 0
        var level = tree.count
        while level > 1 {
            nodes += level
            level = (level + tree.nodeCapacity - 1) / tree.nodeCapacity
        }
        nodes += level
        return slotCoordinates.count * MemoryLayout<Coordinate>.stride
            + slotPoints.count * MemoryLayout<Double>.stride
            + slotIndex.count * MemoryLayout<Int32>.stride
            + slotZ.count * MemoryLayout<Float>.stride
            + bucketSpheres.count * MemoryLayout<Double>.stride
            + bucketBoxes.count * MemoryLayout<GeoBox>.stride
            + directory.approximateByteCount + coarseDirectory.approximateByteCount + hierarchy.approximateByteCount
            + nodes * 48
    }

    /// Indexes a catalog's coordinates; neighbours' indices are `landmarkIndex`es.
    public convenience init(catalog: LandmarkCatalog) {
        // The coordinate column as it is: making every `Landmark` weighs on a load (measured; see
        // Benchmarks/LOG.md).
        self.init(coordinates: catalog.coordinates)
    }

}
