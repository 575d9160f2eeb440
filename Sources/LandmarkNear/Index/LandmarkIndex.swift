/// A spatial index of landmark coordinates with two exact geodesic queries: every landmark
/// within a radius, and the k nearest. "Exact" means equal to a brute-force scan with
/// `Geodesic.wgs84.distance` everywhere (across ±180°, at the poles, for a point on a
/// landmark), ties in distance ordered by index.
///
/// GEOS's STRtree is the spatial index. The landmarks are packed (sort-tile-recursive) into
/// buckets of a few neighbours, and the tree holds each bucket's longitude/latitude box. A
/// query asks the tree for the buckets meeting a box that covers the search cap (`CapCover`:
/// it grows with latitude and splits at ±180°), rejects landmarks by their chord
/// (`GeodesicBounds`), and computes geodesic distances only for landmarks near the boundary
/// or the answer. The tree is built in `init`; queries only read the index.
///
///     let index = LandmarkIndex(catalog: .embedded)
///     let here = Coordinate(latitude: 34.0, longitude: -116.0)
///     index.nearest(to: here, limit: 1)          // [LandmarkNeighbor(index: 0, distance: 15_595.9…)]
///     index.within(8046.72, of: here)            // [] : Turtle Rock is 15.6 km away
public final class LandmarkIndex {
    /// Landmarks per bucket (one tree item).
    static let bucketSize = 8

    /// The number of indexed landmarks.
    public let count: Int
    /// The coordinates in bucket order ("slots").
    private let slotCoordinates: [Coordinate]
    /// The slots' Earth-centred points, x, y, z after one another.
    private let slotPoints: [Double]
    /// Each slot's position in the array given to `init`.
    private let slotIndex: [Int32]
    private let tree: GEOSBoxTree
    /// The first search radius of `nearest` for k = 1: about the mean spacing of the landmarks.
    private let firstRadius: Double

    /// Indexes `coordinates` (all valid); a neighbour's `index` is its position in this array.
    public init(coordinates: [Coordinate]) {
        precondition(coordinates.count < Int(Int32.max), "LandmarkIndex: too many landmarks")
        count = coordinates.count
        let order = BucketPacking.order(of: coordinates, bucketSize: LandmarkIndex.bucketSize)
        slotIndex = order
        let slots = order.map { coordinates[Int($0)] }
        slotCoordinates = slots
        var points: [Double] = []
        points.reserveCapacity(slots.count * 3)
        for coordinate in slots {
            let p = EarthCenteredPoint(coordinate)
            points.append(p.x)
            points.append(p.y)
            points.append(p.z)
        }
        slotPoints = points
        var boxes: [GeoBox] = []
        boxes.reserveCapacity(slots.count / LandmarkIndex.bucketSize + 1)
        var start = 0
        while start < slots.count {
            let end = min(slots.count, start + LandmarkIndex.bucketSize)
            boxes.append(GeoBox(enclosing: slots[start..<end]))
            start = end
        }
        tree = GEOSBoxTree(boxes: boxes)
        let earthArea = 5.1e14
        firstRadius = (earthArea / Double(max(1, count)) / Double.pi).squareRoot()
    }

    /// Indexes a catalog's coordinates; neighbours' indices are `landmarkIndex`es.
    public convenience init(catalog: LandmarkCatalog) {
        self.init(coordinates: catalog.landmarks.map(\.coordinate))
    }

    /// Every landmark whose geodesic distance from `point` is <= `radius` metres, sorted by
    /// (distance, index). Empty for an invalid point or a negative or NaN radius.
    public func within(_ radius: Double, of point: Coordinate) -> [LandmarkNeighbor] {
        guard count > 0, radius >= 0, point.isValid else { return [] }
        let buckets = bucketsMeeting(CapCover(center: point, radius: radius))
        let query = EarthCenteredPoint(point)
        let limit = radius + GeodesicBounds.margin
        let limitSquared = limit * limit
        var found: [LandmarkNeighbor] = []
        slotPoints.withUnsafeBufferPointer { points in
            for bucket in buckets {
                for slot in slots(ofBucket: Int(bucket)) {
                    let p = EarthCenteredPoint(x: points[3 * slot], y: points[3 * slot + 1], z: points[3 * slot + 2])
                    guard query.chordSquared(to: p) <= limitSquared else { continue }
                    let distance = Geodesic.wgs84.distance(from: point, to: slotCoordinates[slot])
                    if distance <= radius {
                        found.append(LandmarkNeighbor(index: Int(slotIndex[slot]), distance: distance))
                    }
                }
            }
        }
        found.sort(by: LandmarkNeighbor.precedes)
        return found
    }

    /// The `limit` landmarks nearest to `point` (all of them when `limit` >= `count`), sorted
    /// by (distance, index). Empty for an invalid point or `limit` <= 0.
    public func nearest(to point: Coordinate, limit: Int) -> [LandmarkNeighbor] {
        guard count > 0, limit > 0, point.isValid else { return [] }
        if limit >= count { return everyLandmark(from: point) }
        let query = EarthCenteredPoint(point)
        var radius = firstRadius * Double(limit).squareRoot()
        while true {
            // Candidates: every landmark of the buckets meeting the cap box, by chord.
            var candidates: [(slot: Int32, chord: Double)] = []
            let buckets = bucketsMeeting(CapCover(center: point, radius: radius))
            slotPoints.withUnsafeBufferPointer { points in
                for bucket in buckets {
                    for slot in slots(ofBucket: Int(bucket)) {
                        let p = EarthCenteredPoint(x: points[3 * slot], y: points[3 * slot + 1], z: points[3 * slot + 2])
                        candidates.append((Int32(slot), query.chordSquared(to: p).squareRoot()))
                    }
                }
            }
            guard candidates.count >= limit else {
                // Too few in the box: grow, to the whole world at last.
                radius = radius < 1_000_000 ? radius * 4 : radius * 2
                if radius >= EllipsoidConstants.longestGeodesic { radius = .infinity }
                continue
            }
            // The limit-th smallest upper bound: `limit` landmarks are at most this far.
            let threshold = GeodesicBounds.upper(chord: LandmarkIndex.smallest(limit, of: candidates))
            guard threshold <= radius else {
                // They may not be the nearest: landmarks outside the box can be nearer than
                // `threshold`. Search the cap that surely holds `limit` landmarks.
                radius = threshold
                continue
            }
            // Every landmark within `radius` is a candidate, and `limit` of them are within
            // `threshold`: only candidates whose lower bound is <= threshold can be answers.
            var answers: [LandmarkNeighbor] = []
            for candidate in candidates where GeodesicBounds.lower(chord: candidate.chord) <= threshold {
                let slot = Int(candidate.slot)
                answers.append(LandmarkNeighbor(
                    index: Int(slotIndex[slot]),
                    distance: Geodesic.wgs84.distance(from: point, to: slotCoordinates[slot])))
            }
            answers.sort(by: LandmarkNeighbor.precedes)
            if answers.count > limit { answers.removeSubrange(limit...) }
            return answers
        }
    }

    /// The k-th smallest chord of `candidates` (1 <= k <= count).
    private static func smallest(_ k: Int, of candidates: [(slot: Int32, chord: Double)]) -> Double {
        if k > 16 { return candidates.map(\.chord).sorted()[k - 1] }
        var best: [Double] = []   // the k smallest so far, ascending
        best.reserveCapacity(k + 1)
        for candidate in candidates where best.count < k || candidate.chord < best[best.count - 1] {
            var at = best.count
            while at > 0 && best[at - 1] > candidate.chord { at -= 1 }
            best.insert(candidate.chord, at: at)
            if best.count > k { best.removeLast() }
        }
        return best[k - 1]
    }

    private func everyLandmark(from point: Coordinate) -> [LandmarkNeighbor] {
        var all: [LandmarkNeighbor] = []
        all.reserveCapacity(count)
        for slot in 0..<count {
            all.append(LandmarkNeighbor(index: Int(slotIndex[slot]),
                                        distance: Geodesic.wgs84.distance(from: point, to: slotCoordinates[slot])))
        }
        all.sort(by: LandmarkNeighbor.precedes)
        return all
    }

    /// The buckets whose boxes meet the cover's boxes, each once.
    private func bucketsMeeting(_ cover: CapCover) -> [Int32] {
        var buckets: [Int32] = []
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

    @inline(__always) private func slots(ofBucket bucket: Int) -> Range<Int> {
        let start = bucket * LandmarkIndex.bucketSize
        return start..<min(count, start + LandmarkIndex.bucketSize)
    }
}
