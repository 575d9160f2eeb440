/// A spatial index of landmark coordinates with two exact geodesic queries: every landmark
/// within a radius, and the k nearest. "Exact" means the same landmarks in the same order as a
/// brute-force scan with `Geodesic.wgs84.distance` everywhere (across ±180°, at the poles, for
/// a point on a landmark), ties in distance ordered by index; each distance is within
/// `distanceTolerance` (3 µm) of `geod_inverse`'s.
///
/// GEOS's STRtree is the spatial index. The landmarks are packed (sort-tile-recursive) into
/// buckets of `bucketSize` neighbours, and the tree holds each bucket's longitude/latitude box.
/// A query asks the tree for the buckets meeting a box that covers the search cap (`CapCover`:
/// it grows with latitude and splits at ±180°), ranks and skips buckets by their bounding
/// sphere, rejects landmarks by their chord (`GeodesicBounds`), and measures the rest with
/// `ShortGeodesic` (20 ns, from the Earth-centred points kept in the index) where the chord is
/// short, `geod_inverse` beyond. Where a measured distance lies within its error bound of the
/// radius, or of another answer's distance (the order could flip), `geod_inverse` decides.
/// `nearest` first probes a few landmarks next to the point in the packing order for a radius
/// that surely holds k landmarks, then asks the tree once for that cap. The tree is built in
/// `init`; queries only read the index.
///
///     let index = LandmarkIndex(catalog: .embedded)
///     let here = Coordinate(latitude: 34.0, longitude: -116.0)
///     index.nearest(to: here, limit: 1)          // [LandmarkNeighbor(index: 0, distance: 15_465.79…)]
///     index.within(8046.72, of: here)            // [] : Turtle Rock is 15.5 km away
public final class LandmarkIndex {
    /// Landmarks per bucket (one tree item). 32 rather than 8: the tree has a quarter of the
    /// items and GEOS's traversal, the largest cost of a query, shrinks with it, while the scan of a
    /// bucket's 32 packed points costs less than one more tree level.
    static let bucketSize = 32

    /// The largest difference between an answer's distance and `geod_inverse`'s, metres:
    /// `ShortGeodesic.errorBound` up to 100 km; beyond, answers are `geod_inverse`'s own.
    public static let distanceTolerance = ShortGeodesic.errorBound(chord: 100_000)

    /// The number of indexed landmarks.
    public let count: Int
    /// The coordinates in packing order ("slots").
    private let slotCoordinates: [Coordinate]
    /// The slots' Earth-centred points, x, y, z after one another.
    private let slotPoints: [Double]
    /// Each slot's position in the array given to `init`.
    private let slotIndex: [Int32]
    /// Each bucket's bounding sphere: centre x, y, z and radius (metres) after one another.
    private let bucketSpheres: [Double]
    /// Slots per slice of the packing (slices run west to east, slots in a slice south to north).
    private let sliceLength: Int
    /// The smallest longitude of each slice.
    private let sliceWesternEdges: [Double]
    private let tree: GEOSBoxTree
    /// The search radius of `nearest` when the probe finds too few landmarks: about the mean
    /// spacing of the landmarks.
    private let firstRadius: Double

    /// Indexes `coordinates` (all valid); a neighbour's `index` is its position in this array.
    public init(coordinates: [Coordinate]) {
        precondition(coordinates.count < Int(Int32.max), "LandmarkIndex: too many landmarks")
        let size = LandmarkIndex.bucketSize
        count = coordinates.count
        let layout = BucketPacking.pack(coordinates, bucketSize: size)
        slotIndex = layout.order
        sliceLength = layout.sliceLength
        let slots = layout.order.map { coordinates[Int($0)] }
        slotCoordinates = slots
        var points = [Double](repeating: 0, count: slots.count * 3)
        for (slot, coordinate) in slots.enumerated() {
            let p = EarthCenteredPoint(coordinate)
            points[3 * slot] = p.x
            points[3 * slot + 1] = p.y
            points[3 * slot + 2] = p.z
        }
        slotPoints = points
        var boxes: [GeoBox] = []
        var spheres: [Double] = []
        boxes.reserveCapacity(slots.count / size + 1)
        spheres.reserveCapacity((slots.count / size + 1) * 4)
        for start in stride(from: 0, to: slots.count, by: size) {
            let range = start..<min(slots.count, start + size)
            boxes.append(GeoBox(enclosing: slots[range]))
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
            spheres += [center.x, center.y, center.z, radius * (1 + 1e-12) + GeodesicBounds.margin]
        }
        bucketSpheres = spheres
        sliceWesternEdges = stride(from: 0, to: slots.count, by: layout.sliceLength).map { start in
            slots[start..<min(slots.count, start + layout.sliceLength)].map(\.longitude).min() ?? -180
        }
        tree = GEOSBoxTree(boxes: boxes)
        let earthArea = 5.1e14
        firstRadius = (earthArea / Double(max(1, count)) / Double.pi).squareRoot()
    }

    /// The memory the index holds, in bytes: its arrays' capacities, and GEOS's tree nodes
    /// (48 bytes each: an envelope, an item and a child pointer) for the bucket leaves and the
    /// levels above them. Allocator overheads are not counted.
    ///
    ///     LandmarkIndex(coordinates: places).approximateByteCount / places.count
    ///     // about 48 on the benchmark's 144,563 places (buckets of 32)
    package var approximateByteCount: Int {
        var nodes = 0
        var level = tree.count
        while level > 1 {
            nodes += level
            level = (level + tree.nodeCapacity - 1) / tree.nodeCapacity
        }
        nodes += level
        return slotCoordinates.capacity * MemoryLayout<Coordinate>.stride
            + slotPoints.capacity * MemoryLayout<Double>.stride
            + slotIndex.capacity * MemoryLayout<Int32>.stride
            + bucketSpheres.capacity * MemoryLayout<Double>.stride
            + sliceWesternEdges.capacity * MemoryLayout<Double>.stride
            + nodes * 48
    }

    /// Indexes a catalog's coordinates; neighbours' indices are `landmarkIndex`es.
    public convenience init(catalog: LandmarkCatalog) {
        self.init(coordinates: catalog.landmarks.map(\.coordinate))
    }

    /// Every landmark whose geodesic distance from `point` is <= `radius` metres, sorted by
    /// (distance, index). Empty for an invalid point or a negative or NaN radius.
    public func within(_ radius: Double, of point: Coordinate) -> [LandmarkNeighbor] {
        guard count > 0, radius >= 0, point.isValid else { return [] }
        let query = EarthCenteredPoint(point)
        let buckets = bucketsMeeting(CapCover(center: point, radius: radius))
        var found: [Candidate] = []
        let chordLimit = radius + GeodesicBounds.margin
        let limitSquared = chordLimit * chordLimit
        slotPoints.withUnsafeBufferPointer { points in
            bucketSpheres.withUnsafeBufferPointer { spheres in
                for bucket in buckets {
                    let b = Int(bucket)
                    let center = EarthCenteredPoint(x: spheres[4 * b], y: spheres[4 * b + 1], z: spheres[4 * b + 2])
                    if query.chord(to: center) - spheres[4 * b + 3] > chordLimit { continue }
                    let range = slots(ofBucket: b)
                    for slot in firstSlot(in: range, atOrAbove: query.z - chordLimit, points)..<range.upperBound {
                        let p = EarthCenteredPoint(x: points[3 * slot], y: points[3 * slot + 1], z: points[3 * slot + 2])
                        if p.z - query.z > chordLimit { break }
                        let chordSquared = query.chordSquared(to: p)
                        guard chordSquared <= limitSquared else { continue }
                        var candidate = measure(slot, p, chordSquared: chordSquared, from: query, point)
                        // Only a distance within its error bound of the radius needs geod_inverse.
                        if candidate.distance - candidate.error > radius { continue }
                        if candidate.distance + candidate.error > radius {
                            makeExact(&candidate, from: point)
                            if candidate.distance > radius { continue }
                        }
                        found.append(candidate)
                    }
                }
            }
        }
        return answers(&found, from: point, limit: found.count)
    }

    /// The `limit` landmarks nearest to `point` (all of them when `limit` >= `count`), sorted
    /// by (distance, index). Empty for an invalid point or `limit` <= 0.
    public func nearest(to point: Coordinate, limit: Int) -> [LandmarkNeighbor] {
        nearest(to: point, limit: limit, within: .infinity)
    }

    /// `nearest(to:limit:)` without those farther than `radius` metres (the boundary decided
    /// with exact distances).
    ///
    ///     index.nearest(to: here, limit: 3, within: 8046.72)   // at most 3, all within 5 mi
    public func nearest(to point: Coordinate, limit: Int, within cutoff: Double) -> [LandmarkNeighbor] {
        guard count > 0, limit > 0, point.isValid, cutoff >= 0 else { return [] }
        let query = EarthCenteredPoint(point)
        if limit >= count {
            var all: [Candidate] = []
            all.reserveCapacity(count)
            slotPoints.withUnsafeBufferPointer { points in
                for slot in 0..<count {
                    let p = EarthCenteredPoint(x: points[3 * slot], y: points[3 * slot + 1], z: points[3 * slot + 2])
                    all.append(measure(slot, p, chordSquared: query.chordSquared(to: p), from: query, point))
                }
            }
            return answers(&all, from: point, limit: limit, radius: cutoff)
        }
        // The probe's radius surely holds `limit` landmarks, but it is often much too large
        // (its landmarks are only near in the packing order, up to a slice's width away), and
        // the tree's answer grows with the box: a cap of about the landmarks' mean spacing is
        // tried first, then the probe's (or, once `limit` chords are known, the sure bound).
        let probed = probeRadius(around: point, query, limit: limit)
        let first = firstRadius * Double(limit).squareRoot()
        var radius = probed.map { min($0, first) } ?? first
        while true {
            // Buckets nearest first (by the chord to their bounding sphere), so that the `limit`
            // smallest chords come early and the farther buckets are skipped on that bound.
            let ranked = rankedBuckets(bucketsMeeting(CapCover(center: point, radius: radius), expected: 32), from: query)
            var best = SmallestValues(capacity: limit)
            slotPoints.withUnsafeBufferPointer { points in
                for (lowerBound, bucket) in ranked {
                    if lowerBound > best.bound { continue }
                    let range = slots(ofBucket: Int(bucket))
                    var slot = firstSlot(in: range, atOrAbove: query.z - best.bound, points)
                    while slot < range.upperBound {
                        let p = EarthCenteredPoint(x: points[3 * slot], y: points[3 * slot + 1], z: points[3 * slot + 2])
                        if p.z - query.z > best.bound { break }
                        best.offer(query.chordSquared(to: p).squareRoot())
                        slot += 1
                    }
                }
            }
            best.settle()
            guard best.isFull else {
                // Too few in the box: grow, to the whole world at last.
                if let probed, radius < probed {
                    radius = min(probed, radius * 4)
                    continue
                }
                radius = radius < 1_000_000 ? radius * 4 : radius * 2
                if radius >= EllipsoidConstants.longestGeodesic { radius = .infinity }
                continue
            }
            // `limit` landmarks are at most this far.
            let threshold = GeodesicBounds.upper(chord: best.bound)
            guard threshold <= radius else {
                // Landmarks outside the box could be nearer than `threshold`: search the cap
                // that surely holds `limit` landmarks.
                radius = threshold
                continue
            }
            // Every landmark within `radius` is in the box: the answers are among those whose
            // chord is <= threshold (a chord is never longer than its geodesic).
            var found: [Candidate] = []
            let chordLimit = threshold + GeodesicBounds.margin
            let limitSquared = chordLimit * chordLimit
            slotPoints.withUnsafeBufferPointer { points in
                for (lowerBound, bucket) in ranked {
                    if lowerBound > chordLimit { continue }
                    let range = slots(ofBucket: Int(bucket))
                    for slot in firstSlot(in: range, atOrAbove: query.z - chordLimit, points)..<range.upperBound {
                        let p = EarthCenteredPoint(x: points[3 * slot], y: points[3 * slot + 1], z: points[3 * slot + 2])
                        if p.z - query.z > chordLimit { break }
                        let chordSquared = query.chordSquared(to: p)
                        if chordSquared <= limitSquared {
                            found.append(measure(slot, p, chordSquared: chordSquared, from: query, point))
                        }
                    }
                }
            }
            return answers(&found, from: point, limit: limit, radius: cutoff)
        }
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

    @inline(__always)
    private func makeExact(_ candidate: inout Candidate, from point: Coordinate) {
        guard candidate.error > 0 else { return }
        candidate.distance = Geodesic.wgs84.distance(from: point, to: slotCoordinates[Int(candidate.slot)])
        candidate.error = 0
    }

    /// The first `limit` of `found` by (distance, index), as the exact distances would order
    /// them: sorted by the measured distances, then wherever two neighbours' error intervals
    /// meet (their true order is unsure), both are measured exactly and the list sorted again.
    /// Once no two neighbours' intervals meet, each interval lies wholly below the next, so
    /// the order is the exact one. Answers whose bound exceeds `distanceTolerance` are made
    /// exact last (that changes no order: their intervals are apart from the others).
    private func answers(
        _ found: inout [Candidate], from point: Coordinate, limit: Int,
        radius: Double = .infinity
    ) -> [LandmarkNeighbor] {
        func precedes(_ a: Candidate, _ b: Candidate) -> Bool {
            a.distance < b.distance || (a.distance == b.distance && a.index < b.index)
        }
        found.sort(by: precedes)
        if limit < found.count {
            // `limit` landmarks are surely within the limit-th smallest upper end; whatever lies
            // surely beyond it is out, before any of it costs an exact measurement.
            var uppers = found.map { $0.distance + $0.error }
            uppers.sort()
            let cut = uppers[limit - 1]
            found.removeAll { $0.distance - $0.error > cut }
        }
        var unsure = true
        while unsure {
            unsure = false
            var i = 0
            while i + 1 < found.count {
                if found[i].error + found[i + 1].error > 0,
                    found[i + 1].distance - found[i + 1].error <= found[i].distance + found[i].error
                {
                    makeExact(&found[i], from: point)
                    makeExact(&found[i + 1], from: point)
                    unsure = true
                }
                i += 1
            }
            if unsure { found.sort(by: precedes) }
        }
        let kept = min(limit, found.count)
        var result: [LandmarkNeighbor] = []
        result.reserveCapacity(kept)
        for i in 0..<kept {
            // Beyond `radius` (exactly so where it is near): this one and all after it are out.
            if found[i].distance - found[i].error > radius { break }
            if found[i].error > LandmarkIndex.distanceTolerance || found[i].distance + found[i].error > radius {
                makeExact(&found[i], from: point)
                if found[i].distance > radius { break }
            }
            result.append(LandmarkNeighbor(index: Int(found[i].index), distance: found[i].distance))
        }
        return result
    }

    /// A radius that surely holds `limit` landmarks, from the landmarks next to `point` in the
    /// packing order (its slice and the two beside it, around its latitude); nil when they are
    /// too few.
    private func probeRadius(around point: Coordinate, _ query: EarthCenteredPoint, limit: Int) -> Double? {
        guard limit <= 16 else { return nil }
        // The last slice starting west of the point (or the first).
        var low = 0
        var high = sliceWesternEdges.count
        while low < high {
            let middle = (low + high) / 2
            if sliceWesternEdges[middle] <= point.longitude { low = middle + 1 } else { high = middle }
        }
        let slice = max(0, low - 1)
        let sliceCount = sliceWesternEdges.count
        var best = SmallestValues(capacity: limit)
        let reach = max(2, limit)
        slotPoints.withUnsafeBufferPointer { points in
            // This slice, the one east of it, the one west of it (each once, wrapping at ±180°).
            for step in 0..<min(3, sliceCount) {
                let neighbour = (slice + (step == 0 ? 0 : step == 1 ? 1 : sliceCount - 1)) % sliceCount
                let start = neighbour * sliceLength
                let end = min(count, start + sliceLength)
                var first = start
                var last = end
                while first < last {
                    let middle = (first + last) / 2
                    if slotCoordinates[middle].latitude < point.latitude { first = middle + 1 } else { last = middle }
                }
                for slot in max(start, first - reach)..<min(end, first + reach) {
                    let p = EarthCenteredPoint(x: points[3 * slot], y: points[3 * slot + 1], z: points[3 * slot + 2])
                    best.offer(query.chordSquared(to: p).squareRoot())
                }
            }
        }
        guard best.isFull else { return nil }
        return GeodesicBounds.upper(chord: best.bound)
    }

    /// `buckets` with the smallest chord from `query` to each one's bounding sphere (a lower
    /// bound of every chord to its landmarks), the nearest few first: the handful of a small
    /// cap in order, and of a large one (hundreds of buckets, where sorting would cost more
    /// than the scan it saves) the nearest one first, so that the scan's bound is tight from
    /// its start and prunes the rest by their lower bounds.
    private func rankedBuckets(_ buckets: [Int32], from query: EarthCenteredPoint) -> [(Double, Int32)] {
        var ranked: [(Double, Int32)] = []
        ranked.reserveCapacity(buckets.count)
        var nearest = 0
        bucketSpheres.withUnsafeBufferPointer { spheres in
            for bucket in buckets {
                let b = Int(bucket)
                let center = EarthCenteredPoint(x: spheres[4 * b], y: spheres[4 * b + 1], z: spheres[4 * b + 2])
                let lowerBound = max(0, query.chord(to: center) - spheres[4 * b + 3])
                if ranked.isEmpty || lowerBound < ranked[nearest].0 { nearest = ranked.count }
                ranked.append((lowerBound, bucket))
            }
        }
        if ranked.count <= 16 {
            // Insertion sort: the usual handful of buckets.
            for i in 1..<max(1, ranked.count) {
                let item = ranked[i]
                var j = i
                while j > 0, ranked[j - 1].0 > item.0 {
                    ranked[j] = ranked[j - 1]
                    j -= 1
                }
                ranked[j] = item
            }
        } else {
            ranked.swapAt(0, nearest)
        }
        return ranked
    }

    /// The buckets whose boxes meet the cover's boxes, each once (room is made for `expected`
    /// of them at once, sparing the array's growth steps).
    private func bucketsMeeting(_ cover: CapCover, expected: Int = 0) -> [Int32] {
        var buckets: [Int32] = []
        buckets.reserveCapacity(expected)
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

    /// The first slot of a bucket whose z is >= `z` (or the bucket's end). A bucket is a run
    /// of a slice sorted by latitude, and z = N (1 − e²) sin φ grows with latitude, so the
    /// slots within a chord c of the query form one run with |z − z_query| <= c: the scans
    /// start there (binary search) and stop past z_query + c, skipping the rest of the bucket.
    @inline(__always)
    private func firstSlot(in range: Range<Int>, atOrAbove z: Double, _ points: UnsafeBufferPointer<Double>) -> Int {
        var low = range.lowerBound
        var high = range.upperBound
        while low < high {
            let middle = (low + high) >> 1
            if points[3 * middle + 2] < z { low = middle + 1 } else { high = middle }
        }
        return low
    }

    @inline(__always) private func slots(ofBucket bucket: Int) -> Range<Int> {
        let start = bucket * LandmarkIndex.bucketSize
        return start..<min(count, start + LandmarkIndex.bucketSize)
    }
}
