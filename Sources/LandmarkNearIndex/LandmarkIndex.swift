import CLinux
import LandmarkNearCore
import LandmarkNearGeodesy

/// A spatial index of landmark coordinates with two exact geodesic queries: every landmark
/// within a radius, and the k nearest. "Exact" means the same landmarks in the same order as a
/// brute-force scan with `Geodesic.wgs84.distance` everywhere (across ±180°, at the poles, for
/// a point on a landmark), ties in distance ordered by index; each distance is within
/// `tolerance(ofDistance:)` of `geod_inverse`'s: 3 µm up to 400 km, 0.1 mm up to 1,000 km,
/// 0.2 mm up to 2,000 km, 1 mm beyond.
///
/// GEOS's STRtree is the spatial index. The landmarks are packed by recursive halving into
/// buckets of `bucketSize` neighbours (`BucketPacking`), and the tree holds each bucket's
/// longitude/latitude box. A query takes the buckets meeting a box that covers the search cap
/// (`CapCover`: it grows with latitude and splits at ±180°) from the cells of `BucketDirectory`
/// when the box spans a few of them (most caps; the directory lists each cell's buckets, made
/// from the same boxes), and asks the tree for larger caps. It ranks and skips buckets by their
/// bounding sphere, finds each bucket's landmarks near the query's z by a branch-free count,
/// rejects landmarks by their chord (`GeodesicBounds`), and measures the rest with
/// `ShortGeodesic` (from the Earth-centred points kept in the index) where the chord is
/// short, `geod_inverse` beyond. Where a measured distance lies within its error bound of the
/// radius, or of another answer's distance (the order could flip), a closer measurement decides:
/// `MidpointGeodesic` (lines up to 2,000 km, 0.2 µm–0.2 mm) or `VincentyGeodesic` (1 mm), each
/// cheaper than the next, where that settles it, else `geod_inverse`; an answer's distance is
/// refined until its bound is within `tolerance(ofDistance:)` of it. `nearest` starts in the
/// point's cell: the chord to the cell's witness and its buckets bound the answer, and the cap of
/// that bound often lies in the cell (done); else a small cap is searched from the directory, and
/// a larger one by walking `BucketHierarchy` (boxes over the buckets) nearest first within the
/// bound, which shrinks as the buckets are swept. The tree, the directories and the hierarchy are
/// built in `init`; queries only read the index.
///
///     let index = LandmarkIndex(catalog: .embedded)
///     let here = Coordinate(latitude: 34.0, longitude: -116.0)
///     index.nearest(to: here, limit: 1)          // [LandmarkNeighbor(index: 0, distance: 15_465.79…)]
///     index.within(8046.72, of: here)            // [] : Turtle Rock is 15.5 km away
///     index.forEachNearest(of: [here], limit: 1) { position, neighbors in }   // many points, in locality order
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
    private let slotCoordinates: UnsafeBufferPointer<Coordinate>
    /// The slots' Earth-centred points, x, y, z after one another.
    private let slotPoints: UnsafeBufferPointer<Double>
    /// The slots' z (`slotPoints`' every third) as `Float`: what `firstSlot` searches.
    private let slotZ: UnsafeBufferPointer<Float>
    /// Each slot's position in the array given to `init`.
    private let slotIndex: UnsafeBufferPointer<Int32>
    /// Each bucket's bounding sphere: centre x, y, z and radius (metres) after one another.
    private let bucketSpheres: UnsafeBufferPointer<Double>
    private let tree: GEOSBoxTree
    /// Each bucket's box (the tree's items).
    private let bucketBoxes: UnsafeBufferPointer<GeoBox>
    /// The cells in front of the tree: small caps take their buckets from it.
    private let directory: BucketDirectory
    /// The same over cells `coarseCellSide` times larger a side: for caps of hundreds of
    /// kilometres (mostly `nearest` far from land), so that they need not ask GEOS's tree, whose
    /// walk and allocations are a fifth of such a search (measured; see Benchmarks/LOG.md).
    private let coarseDirectory: BucketDirectory
    /// Boxes over groups of buckets: `nearest` walks them once it has a bound from the point's cell.
    private let hierarchy: BucketHierarchy
    /// `nearest` walks the hierarchy for caps of at least this radius (metres): half a
    /// directory row's height.
    private let smallestWalk: Double
    /// The first search radius of `nearest` when the point's cell holds too few landmarks: about the mean
    /// spacing of the landmarks.
    private let firstRadius: Double

    /// Indexes `coordinates` (all valid); a neighbour's `index` is its position in this array.
    public convenience init(coordinates: [Coordinate]) {
        self.init(coordinates: coordinates, parallelFrom: LandmarkIndex.parallelFrom)
    }

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

    /// What `init` makes beside the rest, on another thread for a large set: the directory's
    /// lists and the buckets' spheres.
    private struct SideTables: Sendable {
        var directory: BucketDirectory.Lists
        var spheres: [Double]

        init(boxes: [GeoBox], points: [Double], slots: [Coordinate], directoryRows: Int) {
            directory = points.withUnsafeBufferPointer { points in
                slots.withUnsafeBufferPointer { slots in
                    BucketDirectory.Lists(boxes: boxes, points: points, slotCoordinates: slots, rows: directoryRows, findsWitnesses: true)
                }
            }
            spheres = points.withUnsafeBufferPointer { LandmarkIndex.bucketSpheres(points: $0, bucketSize: LandmarkIndex.bucketSize) }
        }
    }

    /// Each bucket's bounding sphere, centre x, y, z and radius after one another (as
    /// `bucketSpheres`), from the slots' Earth-centred points.
    private static func bucketSpheres(points: UnsafeBufferPointer<Double>, bucketSize size: Int) -> [Double] {
        let count = points.count / 3
        let buckets = (count + size - 1) / size
        return [Double](unsafeUninitializedCapacity: 4 * buckets) { spheres, initialized in
            for bucket in 0..<buckets {
                let range = (bucket * size)..<min(count, (bucket + 1) * size)
                var center = EarthCenteredPoint(x: 0, y: 0, z: 0)
                for slot in range {
                    center.x += points[3 * slot] / Double(range.count)
                    center.y += points[3 * slot + 1] / Double(range.count)
                    center.z += points[3 * slot + 2] / Double(range.count)
                }
                var radius = 0.0
                for slot in range {
                    let p = EarthCenteredPoint(x: points[3 * slot], y: points[3 * slot + 1], z: points[3 * slot + 2])
                    radius = max(radius, center.chord(to: p))
                }
                spheres[4 * bucket] = center.x
                spheres[4 * bucket + 1] = center.y
                spheres[4 * bucket + 2] = center.z
                spheres[4 * bucket + 3] = radius * (1 + 1e-12) + GeodesicBounds.margin
            }
            initialized = 4 * buckets
        }
    }

    /// Sets of at least this many landmarks are indexed on two threads (`BucketPacking`'s
    /// threshold: below it, a thread's start and the tables' copies cost about what they save).
    static let parallelFrom = BucketPacking.parallelFrom

    /// The slots' coordinates and Earth-centred points (x, y, z after one another), slot `s`
    /// being landmark `order[s]`; with `twoThreads`, the second half is made on another thread
    /// while this one writes the first in place.
    private static func slotTables(
        _ coordinates: [Coordinate], _ order: [Int32], twoThreads: Bool
    ) -> (slots: [Coordinate], points: [Double]) {
        let n = order.count
        let middle = twoThreads ? n / 2 : n
        let secondHalf = twoThreads ? OtherThread { slotTables(coordinates, order, middle..<n) } : nil
        var slots = [Coordinate](unsafeUninitializedCapacity: n) { slots, initialized in
            for slot in 0..<middle { slots.initializeElement(at: slot, to: coordinates[Int(order[slot])]) }
            initialized = middle
        }
        var points = [Double](unsafeUninitializedCapacity: 3 * n) { points, initialized in
            writePoints(of: slots, into: points)
            initialized = 3 * middle
        }
        if let second = secondHalf?.value() {
            slots += second.slots
            points += second.points
        }
        return (slots, points)
    }

    /// The tables of the slots in `range` (the gather from `coordinates` reads at random; the
    /// trigonometry of each point is most of the time), written in place: appending element by
    /// element is slower (measured; see Benchmarks/LOG.md).
    private static func slotTables(
        _ coordinates: [Coordinate], _ order: [Int32], _ range: Range<Int>
    ) -> (slots: [Coordinate], points: [Double]) {
        let slots = [Coordinate](unsafeUninitializedCapacity: range.count) { slots, initialized in
            for (k, slot) in range.enumerated() { slots.initializeElement(at: k, to: coordinates[Int(order[slot])]) }
            initialized = range.count
        }
        let points = [Double](unsafeUninitializedCapacity: 3 * range.count) { points, initialized in
            writePoints(of: slots, into: points)
            initialized = 3 * range.count
        }
        return (slots, points)
    }

    /// The Earth-centred point of each of `slots`, x, y, z after one another from the start of `points`.
    @inline(__always)
    private static func writePoints(of slots: [Coordinate], into points: UnsafeMutableBufferPointer<Double>) {
        for (k, coordinate) in slots.enumerated() {
            let p = EarthCenteredPoint(coordinate)
            points.initializeElement(at: 3 * k, to: p.x)
            points.initializeElement(at: 3 * k + 1, to: p.y)
            points.initializeElement(at: 3 * k + 2, to: p.z)
        }
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

    /// Every landmark whose geodesic distance from `point` is <= `radius` metres, sorted by
    /// (distance, index). Empty for an invalid point or a negative or NaN radius.
    public func within(_ radius: Double, of point: Coordinate) -> [LandmarkNeighbor] {
        guard count > 0, radius >= 0, point.isValid else { return [] }
        let (query, latitudeSine, latitudeCosine) = EarthCenteredPoint.withLatitudeTrigonometry(point)
        let cover = CapCover(center: point, radius: radius, latitudeSine: latitudeSine, latitudeCosine: latitudeCosine)
        // Answers go to a stack buffer of 40 (measured: a malloc'd array costs a tenth of a
        // search; see Benchmarks/LOG.md), and only beyond it to an array.
        return withUnsafeTemporaryAllocation(of: Candidate.self, capacity: 40) { room in
            var kept = 0
            var spilled: [Candidate] = []
            scanWithin(radius, of: point, query, cover) { candidate in
                if kept < room.count {
                    room.initializeElement(at: kept, to: candidate)
                    kept += 1
                } else {
                    spilled.append(candidate)
                }
            }
            guard spilled.isEmpty else {
                var all = Array(room[0..<kept]) + spilled
                return answers(&all, from: point, query, limit: all.count)
            }
            return answers(in: UnsafeMutableBufferPointer(rebasing: room[0..<kept]), from: point, query, limit: kept)
        }
    }

    /// Calls `keep` with every landmark within `radius` of `point` (exactly), measured; `cover`:
    /// the cap's.
    @inline(__always)
    private func scanWithin(
        _ radius: Double, of point: Coordinate, _ query: EarthCenteredPoint, _ cover: CapCover,
        _ keep: (Candidate) -> Void
    ) {
        let chordLimit = radius + GeodesicBounds.margin
        let limitSquared = chordLimit * chordLimit
        withBuckets(meeting: cover) { buckets in
            withUnsafeTemporaryAllocation(of: (Int, Int).self, capacity: max(1, buckets.count)) { runs in
                withSlots { points, zs in
                    // First every bucket that can hold an answer (its sphere comes within the
                    // radius), then where its run near the query starts, then the runs: each
                    // step asks for the memory of all the buckets before reading any.
                    let n = nearRuns(of: buckets, within: chordLimit, from: query, zs, points, into: runs.baseAddress.unsafelyUnwrapped)
                    for (start, end) in runs[0..<n] {
                        for slot in start..<end {
                            let p = EarthCenteredPoint(
                                x: points[3 &* slot], y: points[3 &* slot &+ 1], z: points[3 &* slot &+ 2])
                            if p.z - query.z > chordLimit { break }
                            let chordSquared = query.chordSquared(to: p)
                            guard chordSquared <= limitSquared else { continue }
                            var candidate = measure(slot, p, chordSquared: chordSquared, from: query, point)
                            // Only a distance within its error bound of the radius needs refining.
                            if isWithin(&candidate, radius, from: point, query) { keep(candidate) }
                        }
                    }
                }
            }
        }
    }

    /// The `limit` landmarks nearest to `point` (all of them when `limit` >= `count`), sorted
    /// by (distance, index). Empty for an invalid point or `limit` <= 0.
    public func nearest(to point: Coordinate, limit: Int) -> [LandmarkNeighbor] {
        nearest(to: point, limit: limit, within: .infinity)
    }

    /// `nearest(to:limit:within:)` of each of `points`, handed to `body` with the point's
    /// position in `points`, in locality order (along a Z-order curve over cells of 1.4° by
    /// 0.7°, so that neighbours on the map come one after another), not in the order given: the
    /// answers are the same, and on the benchmark's mix of places and open sea, in batches of
    /// 4,096, the searches miss the cache and mispredict branches less (`landmark-bench index`,
    /// the "batches" row). Each answer is handed on as it is found; no batch of answers is held.
    ///
    ///     var answers = [[LandmarkNeighbor]](repeating: [], count: points.count)
    ///     index.forEachNearest(of: points, limit: 1) { position, neighbors in answers[position] = neighbors }
    public func forEachNearest(
        of points: [Coordinate], limit: Int, within cutoff: Double = .infinity,
        _ body: (_ position: Int, _ neighbors: [LandmarkNeighbor]) throws -> Void
    ) rethrows {
        for position in LocalityOrder.positions(of: points) {
            try body(position, nearest(to: points[position], limit: limit, within: cutoff))
        }
    }

    /// `nearest(to:limit:)` without those farther than `radius` metres (the boundary decided
    /// with exact distances).
    ///
    ///     index.nearest(to: here, limit: 3, within: 8046.72)   // at most 3, all within 5 mi
    public func nearest(to point: Coordinate, limit: Int, within cutoff: Double) -> [LandmarkNeighbor] {
        guard count > 0, limit > 0, point.isValid, cutoff >= 0 else { return [] }
        let (query, latitudeSine, latitudeCosine) = EarthCenteredPoint.withLatitudeTrigonometry(point)
        func cover(ofRadius radius: Double) -> CapCover {
            CapCover(center: point, radius: radius, latitudeSine: latitudeSine, latitudeCosine: latitudeCosine)
        }
        if limit >= count {
            var all: [Candidate] = []
            all.reserveCapacity(count)
            for slot in 0..<count {
                let p = slotPoint(slot)
                all.append(measure(slot, p, chordSquared: query.chordSquared(to: p), from: query, point))
            }
            return answers(&all, from: point, query, limit: limit, radius: cutoff)
        }
        // First the point's own cell: its buckets (the nearest first) and, for one answer, its
        // witness usually give the `limit` smallest chords, and the cap that surely holds the
        // answers often lies in the cell: then its buckets hold every answer. Otherwise that
        // cap (or, where the cell holds too few, one of about the landmarks' mean spacing,
        // grown until it holds `limit`) is searched, from the directory or the tree.
        let cell = directory.grid.cell(latitude: point.latitude, longitude: point.longitude)
        let inCell: NearestPass = directory.withBuckets(ofCell: cell) { buckets in
            // The witness only where the cell has no bucket (its point is one more cache miss);
            // then no answer can be settled in the cell, and its chord bounds the walk.
            if limit == 1 && buckets.isEmpty {
                let witness = directory.witness(ofCell: cell)
                if witness >= 0 {
                    let chord = query.chord(to: slotPoint(witness))
                    return .searchAgain(GeodesicBounds.upper(chord: chord), chord: chord)
                }
            }
            return withRanked(buckets, from: query, within: .infinity) { ranked, someChord in
                // For one answer, the spheres' bound gives the scan a finite bound from its start.
                withReachable(ranked, from: query, limit: limit, knownChord: someChord) { reachable, bound in
                    guard bound < .infinity else { return .tooFew }
                    let threshold = GeodesicBounds.upper(chord: bound)
                    // `finish` takes the landmarks within chord `threshold` + margin (a chord is
                    // never longer than its geodesic).
                    guard directory.holdsChordBall(threshold + GeodesicBounds.margin, around: query, inCell: cell) else {
                        return .searchAgain(threshold, chord: bound)
                    }
                    return .answered(finish(reachable, threshold: threshold, from: query, point, limit: limit, cutoff: cutoff))
                }
            }
        }
        var radius: Double
        // For one answer, a chord of a real landmark: a safe bound from the start of each search.
        var knownChord = Double.infinity
        switch inCell {
        case .answered(let neighbors): return neighbors
        case .searchAgain(let sureRadius, let chord):
            // A cap of less than half a cell's height (a point near its cell's edge) takes its
            // few cells' lists, a larger one the hierarchy's walk (fewer instructions than
            // walking for all: measured; see Benchmarks/LOG.md).
            if sureRadius >= smallestWalk,
                let neighbors = nearest(to: point, query, limit: limit, cutoff: cutoff, chordBound: chord)
            {
                return neighbors
            }
            radius = sureRadius
            knownChord = chord
        case .tooFew: radius = firstRadius * Double(limit).squareRoot()
        }
        while true {
            let cover = cover(ofRadius: radius)
            let pass: NearestPass = withBuckets(meeting: cover) { buckets in
                // Buckets that could hold a landmark within `radius`, the nearest first (by the
                // chord to its bounding sphere), so that the bound is tight early and the farther
                // buckets are skipped.
                withRanked(buckets, from: query, within: radius + GeodesicBounds.margin) { ranked, someChord in
                    withReachable(ranked, from: query, limit: limit, knownChord: min(knownChord, someChord)) {
                        reachable, bound -> NearestPass in
                        guard bound < .infinity else { return .tooFew }
                        // `limit` landmarks are at most this far.
                        let threshold = GeodesicBounds.upper(chord: bound)
                        // Landmarks outside the box could be nearer than `threshold`: search the
                        // cap that surely holds `limit` landmarks.
                        guard threshold <= radius else { return .searchAgain(threshold, chord: bound) }
                        // Every landmark within `radius` is in the box.
                        return .answered(
                            finish(reachable, threshold: threshold, from: query, point, limit: limit, cutoff: cutoff))
                    }
                }
            }
            switch pass {
            case .answered(let neighbors): return neighbors
            case .searchAgain(let sureRadius, let chord):
                radius = sureRadius
                knownChord = chord
            case .tooFew:
                // Too few in the box: grow, to the whole world at last.
                radius = radius < 1_000_000 ? radius * 4 : radius * 2
                if radius >= EllipsoidConstants.longestGeodesic { radius = .infinity }
            }
        }
    }

    /// `nearest` once the `limit`-th nearest landmark's chord is known to be at most `chordBound`:
    /// the hierarchy's walk from the nearest bucket on, each bucket swept as it is reached (the
    /// bound shrinks as it goes, and the walk skips what is then out of reach); nil when the
    /// landmarks gathered are more than a walk takes at once (then the cap is searched).
    ///
    /// As in a cap's search, every landmark that can be an answer has a chord of at most the
    /// reach of the bound at any time of the walk, so its bucket is reached and it is gathered
    /// (see `BucketHierarchy` and `withReachable`).
    private func nearest(
        to point: Coordinate, _ query: EarthCenteredPoint, limit: Int, cutoff: Double, chordBound: Double
    ) -> [LandmarkNeighbor]? {
        // Room for 64 gathered landmarks (1 KiB: on the stack); far from land a walk gathers four.
        withUnsafeTemporaryAllocation(of: (Int32, Double).self, capacity: 64) { room -> [LandmarkNeighbor]? in
            var best = SmallestValues(capacity: limit)
            if limit == 1 { best.offer(chordBound) }
            guard
                let n = gatherWalking(
                    from: query, reachingAtMost: LandmarkIndex.reach(chordBound), best: &best, into: room),
                best.isFull
            else { return nil }
            let threshold = GeodesicBounds.upper(chord: best.bound)
            return finish(
                UnsafeMutableBufferPointer(rebasing: room[0..<n]), threshold: threshold, from: query, point, limit: limit,
                cutoff: cutoff)
        }
    }

    /// The answers among `reachable` (every landmark within `threshold` of the point is there):
    /// those whose chord is <= threshold (a chord is never longer than its geodesic), measured.
    /// `reachable` is reordered in place: those within come first.
    private func finish(
        _ reachable: UnsafeMutableBufferPointer<(Int32, Double)>, threshold: Double,
        from query: EarthCenteredPoint, _ point: Coordinate, limit: Int, cutoff: Double
    ) -> [LandmarkNeighbor] {
        let chordLimit = threshold + GeodesicBounds.margin
        let limitSquared = chordLimit * chordLimit
        // Those within the limit moved to the front, in order, without a branch (which of a
        // search's few gathered landmarks are within is a coin toss for the predictor).
        var count = 0
        for i in reachable.indices {
            let gathered = reachable[i]
            reachable[count] = gathered
            count &+= gathered.1 <= limitSquared ? 1 : 0
        }
        return withUnsafeTemporaryAllocation(of: Candidate.self, capacity: max(1, count)) { found in
            for (n, (slot, chordSquared)) in reachable[0..<count].enumerated() {
                found.initializeElement(
                    at: n, to: measure(Int(slot), slotPoint(Int(slot)), chordSquared: chordSquared, from: query, point))
            }
            return answers(
                in: UnsafeMutableBufferPointer(rebasing: found[0..<count]), from: point, query, limit: limit, radius: cutoff)
        }
    }

    /// How far a landmark may be (its chord) and still be nearer than one at chord `bound`:
    /// `GeodesicBounds.upper` of it.
    @inline(__always) static func reach(_ bound: Double) -> Double {
        bound == .infinity ? bound : GeodesicBounds.upper(chord: bound) + GeodesicBounds.margin
    }

    /// A landmark met by a query: its distance and how far that distance may be from
    /// `geod_inverse`'s (0 once it is `geod_inverse`'s).
    struct Candidate {
        var slot: Int32
        var index: Int32
        var distance: Double
        var error: Double
    }

    /// `ShortGeodesic` for a chord up to `ShortGeodesic.longestChord`, `geod_inverse` beyond.
    /// Chords under a micrometre (but not 0) are measured exactly too: two spellings of one
    /// place (a pole at two longitudes) are a nanometre apart in Cartesian rounding, and 0 apart
    /// for `geod_inverse`.
    @inline(__always)
    private func measure(
        _ slot: Int, _ p: EarthCenteredPoint, chordSquared: Double,
        from query: EarthCenteredPoint, _ point: Coordinate
    ) -> Candidate {
        let index = slotIndex[slot]
        guard chordSquared <= ShortGeodesic.longestChord * ShortGeodesic.longestChord,
            chordSquared == 0 || chordSquared >= 1e-12
        else {
            return Candidate(
                slot: Int32(slot), index: index,
                distance: Geodesic.wgs84.distance(from: point, to: slotCoordinates[slot]), error: 0)
        }
        let distance = ShortGeodesic.distance(query, p.x - query.x, p.y - query.y, p.z - query.z, chordSquared: chordSquared)
        return Candidate(
            slot: Int32(slot), index: index, distance: distance,
            error: ShortGeodesic.errorBound(chord: chordSquared.squareRoot()))
    }

    /// Measures `candidate` more closely: with the first of `MidpointGeodesic` (lines up to
    /// 2,000 km, 0.2 µm–0.2 mm), `VincentyGeodesic` (1 mm; where its iteration converges) and
    /// `geod_inverse` (exact) whose bound is below the candidate's.
    @inline(__always)
    private func refine(_ candidate: inout Candidate, from point: Coordinate, _ query: EarthCenteredPoint) {
        guard candidate.error > 0 else { return }
        let p = slotPoint(Int(candidate.slot))
        let chord = query.chord(to: p)
        if chord <= MidpointGeodesic.longestChord {
            let bound = MidpointGeodesic.errorBound(chord: chord)
            if candidate.error > bound {
                candidate.distance = MidpointGeodesic.distance(from: query, to: p, chord: chord)
                candidate.error = bound
                return
            }
        }
        let landmark = slotCoordinates[Int(candidate.slot)]
        if candidate.error > VincentyGeodesic.errorBound,
            let distance = VincentyGeodesic.distance(from: point, query, to: landmark, p)
        {
            candidate.distance = distance
            candidate.error = VincentyGeodesic.errorBound
            return
        }
        candidate.distance = Geodesic.wgs84.distance(from: point, to: landmark)
        candidate.error = 0
    }

    /// Whether `candidate`'s exact distance is <= `radius`, refining it while its interval
    /// holds the radius (at the end `geod_inverse` decides).
    @inline(__always)
    private func isWithin(
        _ candidate: inout Candidate, _ radius: Double, from point: Coordinate, _ query: EarthCenteredPoint
    ) -> Bool {
        while true {
            if candidate.distance + candidate.error <= radius { return true }
            if candidate.distance - candidate.error > radius { return false }
            refine(&candidate, from: point, query)
        }
    }

    /// The first `limit` of `found` by (distance, index), as the exact distances would order
    /// them: sorted by the measured distances, then wherever two neighbours' error intervals
    /// meet (their true order is unsure), both are measured more closely (`refine`) and the list
    /// sorted again, until no two meet (at worst every distance is `geod_inverse`'s). Then each
    /// interval lies wholly below the next, so the order is the exact one. Answers whose bound
    /// exceeds `tolerance(ofDistance:)` of their distance are refined last, and the order settled
    /// again if that moved them.
    private func answers(
        _ found: inout [Candidate], from point: Coordinate, _ query: EarthCenteredPoint, limit: Int,
        radius: Double = .infinity
    ) -> [LandmarkNeighbor] {
        found.withUnsafeMutableBufferPointer { answers(in: $0, from: point, query, limit: limit, radius: radius) }
    }

    /// `answers` in place, over a buffer the caller owns (no array to allocate a query).
    private func answers(
        in all: UnsafeMutableBufferPointer<Candidate>, from point: Coordinate, _ query: EarthCenteredPoint, limit: Int,
        radius: Double = .infinity
    ) -> [LandmarkNeighbor] {
        func precedes(_ a: Candidate, _ b: Candidate) -> Bool {
            a.distance < b.distance || (a.distance == b.distance && a.index < b.index)
        }
        var found = all
        sortSmall(found, by: precedes)
        if limit < found.count {
            // `limit` landmarks are surely within the limit-th smallest upper end; whatever lies
            // surely beyond it is out, before any of it costs an exact measurement.
            let cut: Double
            if limit == 1 {
                cut = found.reduce(Double.infinity) { min($0, $1.distance + $1.error) }
            } else {
                var uppers = found.map { $0.distance + $0.error }
                uppers.sort()
                cut = uppers[limit - 1]
            }
            // Keep the order: those surely beyond the cut are dropped, the rest moved up.
            var kept = 0
            for i in 0..<found.count where found[i].distance - found[i].error <= cut {
                found.swapAt(kept, i)
                kept += 1
            }
            found = UnsafeMutableBufferPointer(rebasing: found[0..<kept])
        }
        // Settle the order, then bring the first `limit` within the tolerance; a refined
        // interval need not lie within the old one, so the order is settled again after.
        var refined = true
        while refined {
            var unsure = true
            while unsure {
                unsure = false
                var i = 0
                while i + 1 < found.count {
                    if found[i].error + found[i + 1].error > 0,
                        found[i + 1].distance - found[i + 1].error <= found[i].distance + found[i].error
                    {
                        refine(&found[i], from: point, query)
                        refine(&found[i + 1], from: point, query)
                        unsure = true
                    }
                    i += 1
                }
                if unsure { sortSmall(found, by: precedes) }
            }
            refined = false
            // Each answer within the tolerance of the distance it reports (a refined distance
            // may ask a smaller one: refined again until it holds, `geod_inverse` at last).
            for i in 0..<min(limit, found.count) where found[i].error > LandmarkIndex.nearTolerance {
                while found[i].error > LandmarkIndex.tolerance(ofDistance: found[i].distance) {
                    refine(&found[i], from: point, query)
                    refined = true
                }
            }
        }
        let kept = min(limit, found.count)
        var result: [LandmarkNeighbor] = []
        result.reserveCapacity(kept)
        for i in 0..<kept {
            // Beyond `radius` (exactly so where it is near): this one and all after it are out.
            if found[i].distance - found[i].error > radius { break }
            if !isWithin(&found[i], radius, from: point, query) { break }
            result.append(LandmarkNeighbor(index: Int(found[i].index), distance: found[i].distance))
        }
        return result
    }

    /// Sorts `items`: by insertion when they are few (a search finds two or three, for which the
    /// library's sort costs more; see Benchmarks/LOG.md), else by the library's sort.
    @inline(__always)
    private func sortSmall(_ items: UnsafeMutableBufferPointer<Candidate>, by precedes: (Candidate, Candidate) -> Bool) {
        guard items.count <= 16 else {
            var items = items
            items.sort(by: precedes)
            return
        }
        for i in 1..<max(1, items.count) {
            let item = items[i]
            var j = i
            while j > 0, precedes(item, items[j - 1]) {
                items[j] = items[j - 1]
                j -= 1
            }
            items[j] = item
        }
    }

    /// How one search of `nearest` ended.
    private enum NearestPass {
        case answered([LandmarkNeighbor])
        /// Fewer than `limit` landmarks in the cap.
        case tooFew
        /// Landmarks outside the cap could be nearer: the cap of this radius surely holds them
        /// (`chord`: the `limit`-th smallest chord found).
        case searchAgain(Double, chord: Double)
    }

    /// Calls `body` with the slots' points (x, y, z after one another) and their z as `Float`.
    @inline(__always)
    private func withSlots<R>(_ body: (UnsafeBufferPointer<Double>, UnsafeBufferPointer<Float>) -> R) -> R {
        body(slotPoints, slotZ)
    }

    @inline(__always) private func slotPoint(_ slot: Int) -> EarthCenteredPoint {
        EarthCenteredPoint(x: slotPoints[3 * slot], y: slotPoints[3 * slot + 1], z: slotPoints[3 * slot + 2])
    }

    /// Calls `body` with the buckets that meet `cover`'s boxes, each once: from the directory
    /// when the cover spans few cells, else from the coarse directory when it spans few of its
    /// cells and their lists are short, else from GEOS's tree.
    @inline(__always)
    private func withBuckets<R>(meeting cover: CapCover, _ body: (UnsafeBufferPointer<Int32>) -> R) -> R {
        let spans = (directory.span(of: cover.first), cover.second.map { directory.span(of: $0) })
        guard spans.0.cellCount + (spans.1?.cellCount ?? 0) <= LandmarkIndex.directoryCellLimit else {
            return withBuckets(meetingLarge: cover, body)
        }
        let room = directory.entryCount(of: spans.0) + (spans.1.map { directory.entryCount(of: $0) } ?? 0)
        return withBuckets(meeting: cover, spans, from: directory, room: room, body)
    }

    /// `withBuckets` for a cover of more than `directoryCellLimit` cells.
    @inline(never)
    private func withBuckets<R>(meetingLarge cover: CapCover, _ body: (UnsafeBufferPointer<Int32>) -> R) -> R {
        let coarse = coarseDirectory
        let spans = (coarse.span(of: cover.first), cover.second.map { coarse.span(of: $0) })
        if spans.0.cellCount + (spans.1?.cellCount ?? 0) <= LandmarkIndex.directoryCellLimit {
            let room = coarse.entryCount(of: spans.0) + (spans.1.map { coarse.entryCount(of: $0) } ?? 0)
            if room <= LandmarkIndex.coarseEntryLimit { return withBuckets(meeting: cover, spans, from: coarse, room: room, body) }
        }
        return bucketsMeeting(cover).withUnsafeBufferPointer(body)
    }

    /// `withBuckets` from one of the directories; `spans`: the cells of the cover's boxes there,
    /// `room`: their entry count.
    @inline(__always)
    private func withBuckets<R>(
        meeting cover: CapCover, _ spans: (BucketDirectory.Span, BucketDirectory.Span?), from directory: BucketDirectory,
        room: Int, _ body: (UnsafeBufferPointer<Int32>) -> R
    ) -> R {
        withUnsafeTemporaryAllocation(of: Int32.self, capacity: max(1, room)) { out in
            var n = directory.appendBuckets(meeting: cover.first, spans.0, boxes: bucketBoxes, into: out, count: 0)
            if let second = cover.second, let span = spans.1 {
                n = directory.appendBuckets(
                    meeting: second, span, boxes: bucketBoxes, skipping: cover.first, into: out, count: n)
            }
            return body(UnsafeBufferPointer(rebasing: out[0..<n]))
        }
    }

    /// Writes to `runs` the slot range of each of `buckets` whose bounding sphere comes within
    /// `chordLimit` of `query`, from its first slot with z >= query.z − chordLimit (see
    /// `firstSlot`), and returns their number. Each step prefetches what the next one reads, for
    /// all buckets at once: the z of the buckets that pass, then the points where their runs start.
    @inline(__always)
    private func nearRuns(
        of buckets: UnsafeBufferPointer<Int32>, within chordLimit: Double, from query: EarthCenteredPoint,
        _ zs: UnsafeBufferPointer<Float>, _ points: UnsafeBufferPointer<Double>,
        into runs: UnsafeMutablePointer<(Int, Int)>
    ) -> Int {
        var n = 0
        do {
            let spheres = bucketSpheres
            for bucket in buckets {
                let b = Int(bucket)
                let center = EarthCenteredPoint(x: spheres[4 &* b], y: spheres[4 &* b &+ 1], z: spheres[4 &* b &+ 2])
                if query.chord(to: center) - spheres[4 &* b &+ 3] > chordLimit { continue }
                let range = slots(ofBucket: b)
                landmark_prefetch(zs.baseAddress.unsafelyUnwrapped + range.lowerBound)
                landmark_prefetch(zs.baseAddress.unsafelyUnwrapped + (range.lowerBound &+ 16))
                runs[n] = (range.lowerBound, range.upperBound)
                n &+= 1
            }
        }
        for i in 0..<n {
            let start = firstSlot(in: runs[i].0..<runs[i].1, atOrAbove: query.z - chordLimit, zs)
            landmark_prefetch(points.baseAddress.unsafelyUnwrapped + 3 &* start)
            landmark_prefetch(points.baseAddress.unsafelyUnwrapped + (3 &* start &+ 8))
            runs[i].0 = start
        }
        return n
    }

    /// Calls `body` with those of `buckets` whose bounding sphere comes within `bound` of `query`
    /// (its chord), each with that lower bound of every chord to its landmarks, and with an upper
    /// bound of the chord to the nearest of their landmarks (a sphere's far side), the nearest
    /// one first, so that the scan's bound is tight from its start and prunes the rest by their
    /// lower bounds; the rest in the order given, but for the one that was first, which takes the
    /// nearest's place. No sort, and the pick made by selects: a sort's and a branchy pick's
    /// comparisons mispredict (measured; see Benchmarks/LOG.md). Every bucket is still weighed
    /// by its lower bound, so the answers are those of a sorted ranking.
    private func withRanked<R>(
        _ buckets: UnsafeBufferPointer<Int32>, from query: EarthCenteredPoint, within bound: Double,
        _ body: (UnsafeMutableBufferPointer<(Double, Int32)>, Double) -> R
    ) -> R {
        withUnsafeTemporaryAllocation(of: (Double, Int32).self, capacity: max(1, buckets.count)) { ranked in
            var n = 0
            var nearest = 0
            var nearestBound = Double.infinity
            // The chord to some landmark is at most the chord to a bucket's centre plus its radius.
            var someChord = Double.infinity
            do {
                let spheres = bucketSpheres
                for bucket in buckets {
                    let b = Int(bucket)
                    let center = EarthCenteredPoint(x: spheres[4 * b], y: spheres[4 * b + 1], z: spheres[4 * b + 2])
                    let chord = query.chord(to: center)
                    let lowerBound = max(0, chord - spheres[4 * b + 3])
                    if lowerBound > bound { continue }
                    someChord = min(someChord, chord + spheres[4 * b + 3])
                    // Selects, not a branch: which bucket is nearest is a coin toss.
                    let nearer = lowerBound < nearestBound
                    nearest = nearer ? n : nearest
                    nearestBound = nearer ? lowerBound : nearestBound
                    if n < LandmarkIndex.startsFound {
                        // Its z, for `gatherReachable`'s first step (the misses overlap).
                        let zs = slotZ.baseAddress.unsafelyUnwrapped + b &* LandmarkIndex.bucketSize
                        landmark_prefetch(zs)
                        landmark_prefetch(zs + 16)
                    }
                    ranked.initializeElement(at: n, to: (lowerBound, bucket))
                    n += 1
                }
            }
            if n > 0 { ranked.swapAt(0, nearest) }
            return body(UnsafeMutableBufferPointer(rebasing: ranked[0..<n]), someChord)
        }
    }

    /// Finds the `limit` smallest chords to the landmarks of `ranked` (for one answer, starting
    /// from `knownChord`, a landmark's chord known beforehand) and, in the same walk, gathers
    /// every landmark that may still be an answer, then calls `body` with them and the bound:
    /// the `limit`-th smallest chord (infinity when `ranked` holds fewer). Squared chords are
    /// compared with the squared bound, so only a chord below it costs a square root (measured: a
    /// square root a landmark costs a fifth of a query; see Benchmarks/LOG.md). The landmarks
    /// gathered are those whose chord is within `GeodesicBounds.upper` of the bound at the time it
    /// was met (the bound only shrinks, so this holds all that are within it of the final bound),
    /// with their squared chords. One walk instead of two (measured: a second walk costs a tenth of
    /// a query; see Benchmarks/LOG.md).
    @inline(__always)
    private func withReachable<R>(
        _ ranked: UnsafeMutableBufferPointer<(Double, Int32)>, from query: EarthCenteredPoint,
        limit: Int, knownChord: Double, _ body: (UnsafeMutableBufferPointer<(Int32, Double)>, Double) -> R
    ) -> R {
        func start() -> SmallestValues {
            var best = SmallestValues(capacity: limit)
            if limit == 1 { best.offer(knownChord) }
            return best
        }
        var slotCount = 0
        for (_, bucket) in ranked { slotCount += slots(ofBucket: Int(bucket)).count }
        // A room of 64 gathered landmarks first (1 KiB: on the stack; a larger room comes from
        // malloc, measured to matter near a city; see Benchmarks/LOG.md), the whole room only when
        // that overflows.
        let small = min(slotCount, 64)
        if let done = withUnsafeTemporaryAllocation(
            of: (Int32, Double).self, capacity: max(1, small),
            { out -> R? in
                var best = start()
                guard let n = gatherReachable(ranked, from: query, best: &best, into: out) else { return nil }
                return body(UnsafeMutableBufferPointer(rebasing: out[0..<n]), best.bound)
            })
        {
            return done
        }
        return withUnsafeTemporaryAllocation(of: (Int32, Double).self, capacity: max(1, slotCount)) { out in
            var best = start()
            let n = gatherReachable(ranked, from: query, best: &best, into: out)!
            return body(UnsafeMutableBufferPointer(rebasing: out[0..<n]), best.bound)
        }
    }

    /// `withReachable`'s walk: the number gathered into `out`, or nil when `out` is too small.
    @inline(__always)
    private func gatherReachable(
        _ ranked: UnsafeMutableBufferPointer<(Double, Int32)>, from query: EarthCenteredPoint,
        best: inout SmallestValues, into out: UnsafeMutableBufferPointer<(Int32, Double)>
    ) -> Int? {
        var gathering = Gathering(bound: best.bound)
        var overflow = false
        withSlots { points, zs in
            // Where the sweeps of the first few buckets start, found at once (their z were
            // asked for by `withRanked`), and the points there and just below asked for: the
            // sweeps' first loads miss the cache (measured: the hottest lines of a search; see
            // Benchmarks/LOG.md), and asked for together their misses overlap.
            let early = min(ranked.count, LandmarkIndex.startsFound)
            withUnsafeTemporaryAllocation(of: Int.self, capacity: LandmarkIndex.startsFound) { starts in
                for i in 0..<early where ranked[i].0 <= gathering.farthest {
                    let start = firstSlot(in: slots(ofBucket: Int(ranked[i].1)), atOrAbove: query.z, zs)
                    // The slot below and the next few, within the table.
                    let base = points.baseAddress.unsafelyUnwrapped
                    landmark_prefetch(base + 3 &* max(0, start &- 1))
                    landmark_prefetch(base + min(points.count &- 1, 3 &* start &+ 5))
                    starts[i] = start
                }
                for (i, (lowerBound, bucket)) in ranked.enumerated() {
                    if lowerBound > gathering.farthest { continue }
                    let range = slots(ofBucket: Int(bucket))
                    let start = i < early ? starts[i] : firstSlot(in: range, atOrAbove: query.z, zs)
                    guard sweep(range, from: start, query, points, zs, best: &best, &gathering, into: out) else {
                        overflow = true
                        return
                    }
                }
            }
        }
        return overflow ? nil : gathering.count
    }

    /// `gatherReachable` over the buckets that the hierarchy's walk reaches within the shrinking
    /// bound's reach (and within `limit`, a reach known beforehand), instead of a list.
    @inline(__always)
    private func gatherWalking(
        from query: EarthCenteredPoint, reachingAtMost limit: Double, best: inout SmallestValues,
        into out: UnsafeMutableBufferPointer<(Int32, Double)>
    ) -> Int? {
        var gathering = Gathering(bound: best.bound)
        var finished = true
        withSlots { points, zs in
            finished = hierarchy.forEachBucket(within: min(limit, gathering.farthest), of: query) { bucket in
                let range = slots(ofBucket: bucket)
                let swept: Bool
                if reachesWhole(range, from: query, zs, within: gathering.farthest) {
                    swept = scanWhole(range, query, points, best: &best, &gathering, into: out)
                } else {
                    let start = firstSlot(in: range, atOrAbove: query.z, zs)
                    swept = sweep(range, from: start, query, points, zs, best: &best, &gathering, into: out)
                }
                guard swept else { return nil }
                return min(limit, gathering.farthest)
            }
        }
        return finished ? gathering.count : nil
    }

    /// A gathering's bound (its `SmallestValues`'), that bound's reach, and the landmarks gathered.
    private struct Gathering {
        private(set) var bound = Double.infinity
        private(set) var boundSquared = Double.infinity
        private(set) var farthest = Double.infinity
        private(set) var farthestSquared = Double.infinity
        var count = 0

        @inline(__always) init(bound: Double) { tighten(to: bound) }

        @inline(__always) mutating func tighten(to bound: Double) {
            self.bound = bound
            boundSquared = bound * bound
            farthest = LandmarkIndex.reach(bound)
            farthestSquared = farthest * farthest
        }
    }

    /// Sweeps a bucket's slots (`range`) outward from `start` (its first slot at or above the
    /// query's z): offers `best` each chord below its bound and gathers into `out` each landmark
    /// within the bound's reach; false when `out` is full.
    ///
    /// The slots near the query's z come first, so that the bound shrinks early and the sweep
    /// stops soon (a bucket's slots are sorted by z): a slot above and a slot below in turn, each
    /// side until its next slot is beyond reach in z. (Not the nearer of the two in z first: that
    /// is a branch a slot, which mispredicts; measured, see Benchmarks/LOG.md.) `slotZ` orders and
    /// stops it: Float(z) is within 0.25 m of z here, so a slot more than `farthest` + 1 m away in
    /// Float(z) is beyond `farthest`; `farthest` only shrinks, so a side stopped holds no slot
    /// within the final reach, and every slot within it is met while the reach is at least as
    /// large, and gathered.
    @inline(__always)
    private func sweep(
        _ range: Range<Int>, from start: Int, _ query: EarthCenteredPoint, _ points: UnsafeBufferPointer<Double>,
        _ zs: UnsafeBufferPointer<Float>, best: inout SmallestValues, _ gathering: inout Gathering,
        into out: UnsafeMutableBufferPointer<(Int32, Double)>
    ) -> Bool {
        // The slot at `slot`: its chord, offered and gathered; false when it is within reach
        // and `out` is full.
        @inline(__always) func visit(_ slot: Int) -> Bool {
            let p = EarthCenteredPoint(x: points[3 &* slot], y: points[3 &* slot &+ 1], z: points[3 &* slot &+ 2])
            let chordSquared = query.chordSquared(to: p)
            // Written always, counted only within reach: a branch on whether a slot is within
            // reach mispredicts (measured; see Benchmarks/LOG.md).
            let reached = chordSquared <= gathering.farthestSquared
            guard gathering.count < out.count else { return !reached }
            out.initializeElement(at: gathering.count, to: (Int32(truncatingIfNeeded: slot), chordSquared))
            gathering.count &+= reached ? 1 : 0
            // `measure` reads its index (`finish`): asked for here, that cache miss overlaps the
            // sweep instead of stalling `finish` (measured; see Benchmarks/LOG.md).
            landmark_prefetch(slotIndex.baseAddress.unsafelyUnwrapped + slot)
            if chordSquared < gathering.boundSquared {
                best.offer(chordSquared.squareRoot())
                if best.bound < gathering.bound { gathering.tighten(to: best.bound) }
            }
            return true
        }
        var up = start
        var down = start &- 1
        var upOpen = up < range.upperBound
        var downOpen = down >= range.lowerBound
        while upOpen || downOpen {
            if upOpen {
                if Double(zs[up]) - query.z > gathering.farthest + 1 {
                    upOpen = false
                } else {
                    guard visit(up) else { return false }
                    up &+= 1
                    upOpen = up < range.upperBound
                }
            }
            if downOpen {
                if query.z - Double(zs[down]) > gathering.farthest + 1 {
                    downOpen = false
                } else {
                    guard visit(down) else { return false }
                    down &-= 1
                    downOpen = down >= range.lowerBound
                }
            }
        }
        return true
    }

    /// Whether every slot of `range` lies within `farthest` + 1 m of the query in z (`slotZ`, a
    /// bucket's are sorted): then `sweep` would reach them all, and `scanWhole` costs less.
    @inline(__always)
    private func reachesWhole(
        _ range: Range<Int>, from query: EarthCenteredPoint, _ zs: UnsafeBufferPointer<Float>, within farthest: Double
    ) -> Bool {
        query.z - Double(zs[range.lowerBound]) <= farthest + 1 && Double(zs[range.upperBound &- 1]) - query.z <= farthest + 1
    }

    /// `sweep` for a bucket whose slots it would all reach (far from land, where the bound is
    /// hundreds of kilometres and a bucket a few): every squared chord first, in a loop without
    /// branches, then the smallest (for one answer; each below the bound for more) offered to
    /// `best`, then every slot within the reach of the tightened bound gathered. The same
    /// landmarks as `sweep`'s or fewer, and never one fewer within the reach of the final bound
    /// (the bound only shrinks). `sweep`'s order in z buys nothing when all are reached, and
    /// costs instructions a slot (measured; see Benchmarks/LOG.md).
    @inline(__always)
    private func scanWhole(
        _ range: Range<Int>, _ query: EarthCenteredPoint, _ points: UnsafeBufferPointer<Double>,
        best: inout SmallestValues, _ gathering: inout Gathering, into out: UnsafeMutableBufferPointer<(Int32, Double)>
    ) -> Bool {
        withUnsafeTemporaryAllocation(of: Double.self, capacity: LandmarkIndex.bucketSize) { chords in
            let first = range.lowerBound
            var smallest = Double.infinity
            for i in 0..<range.count {
                let slot = first &+ i
                let chordSquared = query.chordSquared(
                    to: EarthCenteredPoint(x: points[3 &* slot], y: points[3 &* slot &+ 1], z: points[3 &* slot &+ 2]))
                chords[i] = chordSquared
                smallest = min(smallest, chordSquared)
            }
            if smallest < gathering.boundSquared {
                if best.capacity == 1 {
                    best.offer(smallest.squareRoot())
                } else {
                    for i in 0..<range.count where chords[i] < gathering.boundSquared { best.offer(chords[i].squareRoot()) }
                }
                if best.bound < gathering.bound { gathering.tighten(to: best.bound) }
            }
            for i in 0..<range.count where chords[i] <= gathering.farthestSquared {
                guard gathering.count < out.count else { return false }
                out.initializeElement(at: gathering.count, to: (Int32(truncatingIfNeeded: first &+ i), chords[i]))
                gathering.count &+= 1
                landmark_prefetch(slotIndex.baseAddress.unsafelyUnwrapped + (first &+ i))
            }
            return true
        }
    }

    /// The buckets whose boxes meet the cover's boxes, each once, from GEOS's tree.
    private func bucketsMeeting(_ cover: CapCover) -> [Int32] {
        var buckets: [Int32] = []
        buckets.reserveCapacity(32)
        tree.query(cover.first, into: &buckets)
        if let second = cover.second {
            // A bucket spanning ±180° can meet both halves.
            tree.query(second, into: &buckets)
            buckets.sort()
            var unique: [Int32] = []
            unique.reserveCapacity(buckets.count)
            for bucket in buckets where unique.last != bucket { unique.append(bucket) }
            return unique
        }
        return buckets
    }

    /// The first slot of a bucket whose z is >= `z` (or the bucket's end), or one before it. A
    /// bucket is sorted by latitude, and z = N (1 − e²) sin φ grows with latitude, so the slots
    /// within a chord c of the query form one run with |z − z_query| <= c: the scans start
    /// there and stop past z_query + c, skipping the rest of the bucket.
    ///
    /// It counts the bucket's `slotZ` (z as `Float`) below `Float(z)` with two 16-lane compares:
    /// no branch, two cache lines, where a binary search over the points themselves waits on five
    /// dependent loads from five cache lines, mostly misses (measured; see Benchmarks/LOG.md). The
    /// count is safe: `Float(zᵢ) < Float(z)` implies zᵢ < z (rounding is monotone), so no slot at
    /// or above `z` is skipped; a slot just below it may be kept, and the chord test rejects it.
    @inline(__always)
    private func firstSlot(in range: Range<Int>, atOrAbove z: Double, _ zs: UnsafeBufferPointer<Float>) -> Int {
        let target = Float(z)
        guard range.count == LandmarkIndex.bucketSize else {
            var slot = range.lowerBound
            while slot < range.upperBound && zs[slot] < target { slot &+= 1 }
            return slot
        }
        let start = UnsafeRawPointer(zs.baseAddress.unsafelyUnwrapped + range.lowerBound)
        let limit = SIMD16<Float>(repeating: target)
        let low = start.loadUnaligned(as: SIMD16<Float>.self)
        let high = start.loadUnaligned(fromByteOffset: 64, as: SIMD16<Float>.self)
        let none = SIMD16<Int32>(repeating: 0)
        let one = SIMD16<Int32>(repeating: 1)
        let below = none.replacing(with: one, where: low .< limit) &+ none.replacing(with: one, where: high .< limit)
        return range.lowerBound &+ Int(below.wrappedSum())
    }

    @inline(__always) private func slots(ofBucket bucket: Int) -> Range<Int> {
        let start = bucket * LandmarkIndex.bucketSize
        return start..<min(count, start + LandmarkIndex.bucketSize)
    }
}
