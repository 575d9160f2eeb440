import CLinux
@_spi(Inlining) import LandmarkNearGeodesy

/// Boxes (in Earth-centred x, y, z) over groups of buckets, two groups to a node, down to the
/// buckets: what `LandmarkIndex.nearest` walks, nearest first, sweeping each bucket as it is
/// reached, once it has a bound of the answer's chord from the point's cell, in place of searching
/// the cap of that bound (whose buckets came from the directories or GEOS's tree, which stays the
/// index of record: `within`'s large caps ask it, and `nearest` falls back on the cap's search).
///
/// Why: far from land (most of the sea) the bound from the point's cell is hundreds of kilometres,
/// and the cap of that radius spans many directory cells or asks the tree; listing its buckets and
/// testing their spheres is most of such a search. The walk opens only the nodes whose boxes
/// come within the bound, which shrinks as the nearest buckets are swept first. Boxes, not spheres
/// over the children's spheres: those grow with each level, and the walk would open too many
/// nodes (both measured; see Benchmarks/LOG.md).
///
/// The nodes follow `BucketPacking`'s cuts: a set of B buckets was cut into its first ⌊B/2⌋
/// buckets and the rest, each side a region of its own, so each node's buckets are near one another
/// and its box is small. (Any grouping would be exact: only the walk's length depends on it.)
///
///     let hierarchy = BucketHierarchy(points: slotPoints, bucketSize: 32)
///     var found: [Int] = []
///     _ = hierarchy.forEachBucket(within: 500_000, of: query) { bucket in
///         found.append(bucket)
///         return 500_000   // the bound from here on
///     }
///     found   // the three or four buckets within 500 km of a point at sea
final class BucketHierarchy {
    /// The inner nodes' boxes in preorder (the root first, a node's first child right after
    /// it): least x, y, z, then greatest x, y, z.
    private let nodeBoxes: UnsafeBufferPointer<Double>
    /// Each bucket's box, in the same form.
    private let bucketBoxes: UnsafeBufferPointer<Double>
    /// Each inner node's two children: an inner node's number (>= 0), or a bucket b as −1 − b.
    private let children: UnsafeBufferPointer<Int32>
    /// The root: an inner node, or the one bucket; nil for no buckets.
    private let root: Int32?

    /// - Parameters:
    ///   - points: the slots' Earth-centred points, x, y, z after one another.
    ///   - bucketSize: slots per bucket (the last bucket may hold fewer).
    init(points: UnsafeBufferPointer<Double>, bucketSize: Int) {
        let slotCount = points.count / 3
        let bucketCount = (slotCount + bucketSize - 1) / bucketSize
        bucketBoxes = .owned(repeating: 0, count: bucketCount * 6) { boxes in
            for bucket in 0..<bucketCount {
                var box = Box.empty
                for slot in (bucket * bucketSize)..<min(slotCount, (bucket + 1) * bucketSize) {
                    box.add(points[3 * slot], points[3 * slot + 1], points[3 * slot + 2])
                }
                box.store(into: boxes, at: bucket)
            }
        }
        var nodes: [Double] = []
        var links: [Int32] = []
        nodes.reserveCapacity(max(0, bucketCount - 1) * 6)
        links.reserveCapacity(max(0, bucketCount - 1) * 2)
        let leaves = bucketBoxes
        /// The box of buckets first..<first + count (a node, or the bucket alone), made below.
        func build(_ first: Int, _ count: Int) -> (reference: Int32, box: Box) {
            guard count > 1 else { return (Int32(-1 - first), Box(leaves, at: first)) }
            let node = links.count / 2
            nodes += [Double](repeating: 0, count: 6)
            links += [0, 0]
            let half = count / 2
            let left = build(first, half)
            let right = build(first + half, count - half)
            let box = left.box.union(right.box)
            nodes.withUnsafeMutableBufferPointer { box.store(into: $0, at: node) }
            links[2 * node] = left.reference
            links[2 * node + 1] = right.reference
            return (Int32(node), box)
        }
        root = bucketCount > 0 ? build(0, bucketCount).reference : nil
        nodeBoxes = .ownedCopy(of: nodes)
        children = .ownedCopy(of: links)
    }

    deinit {
        nodeBoxes.freeOwned()
        bucketBoxes.freeOwned()
        children.freeOwned()
    }

    /// The bytes the hierarchy holds.
    var approximateByteCount: Int {
        (nodeBoxes.count + bucketBoxes.count) * MemoryLayout<Double>.stride
            + children.count * MemoryLayout<Int32>.stride
    }

    /// An axis-aligned box of Earth-centred points.
    private struct Box {
        var low: SIMD3<Double>
        var high: SIMD3<Double>

        static let empty = Box(low: SIMD3(repeating: .infinity), high: SIMD3(repeating: -.infinity))

        init(low: SIMD3<Double>, high: SIMD3<Double>) {
            self.low = low
            self.high = high
        }

        init(_ table: UnsafeBufferPointer<Double>, at i: Int) {
            low = SIMD3(table[6 * i], table[6 * i + 1], table[6 * i + 2])
            high = SIMD3(table[6 * i + 3], table[6 * i + 4], table[6 * i + 5])
        }

        mutating func add(_ x: Double, _ y: Double, _ z: Double) {
            low = pointwiseMin(low, SIMD3(x, y, z))
            high = pointwiseMax(high, SIMD3(x, y, z))
        }

        func union(_ other: Box) -> Box {
            Box(low: pointwiseMin(low, other.low), high: pointwiseMax(high, other.high))
        }

        func store(into table: UnsafeMutableBufferPointer<Double>, at i: Int) {
            for axis in 0..<3 {
                table[6 * i + axis] = low[axis]
                table[6 * i + 3 + axis] = high[axis]
            }
        }
    }

    /// Calls `visit` with every bucket whose box comes within the bound of `query` (straight-line
    /// distance) when the walk reaches it, nearer ones first as the walk meets them. The bound is
    /// `bound` at first and then what the last visit returned (it may shrink as the visits go;
    /// the walk then skips what it no longer reaches); a visit that returns nil ends the walk
    /// (`forEachBucket` then returns false).
    ///
    /// Exactness: a box holds its landmarks' points, so the squared distance to the box, summed
    /// as `EarthCenteredPoint.chordSquared` sums, is at most each landmark's squared chord as it
    /// computes it: each step (a difference with a bound in place of the coordinate, a square, a
    /// sum) is monotone in rounding. A box beyond the bound holds no landmark within it. (The
    /// squared bound is raised by a relative 1e-12 all the same: the walk must never be the one
    /// to decide a chord that rounding could put on either side.)
    @inline(__always)
    func forEachBucket(
        within bound: Double, of query: EarthCenteredPoint, _ visit: (_ bucket: Int) -> Double?
    ) -> Bool {
        guard let root else { return true }
        @inline(__always) func squaredDistance(_ reference: Int32) -> Double {
            let table = reference >= 0 ? nodeBoxes : bucketBoxes
            let i = 6 &* Int(reference >= 0 ? reference : -1 &- reference)
            let dx = max(0, table[i] - query.x, query.x - table[i &+ 3])
            let dy = max(0, table[i &+ 1] - query.y, query.y - table[i &+ 4])
            let dz = max(0, table[i &+ 2] - query.z, query.z - table[i &+ 5])
            return dx * dx + dy * dy + dz * dz
        }
        @inline(__always) func squared(_ bound: Double) -> Double { bound * bound * (1 + 1e-12) }
        var limit = squared(bound)
        var nextDistance = squaredDistance(root)
        guard nextDistance <= limit else { return true }
        // The nodes still to open, with their squared distances; a walk keeps at most one
        // waiting sibling a level (the depth is log₂ of the buckets: 13 at 144k places, at most
        // 26 for 2³¹).
        return withUnsafeTemporaryAllocation(of: (Int32, Double).self, capacity: 40) { pending in
            var waiting = 0
            var next = root
            while true {
                if next < 0 {
                    guard let bound = visit(Int(-1 &- next)) else { return false }
                    limit = squared(bound)
                } else {
                    let node = 2 &* Int(next)
                    let first = children[node]
                    let second = children[node &+ 1]
                    let firstDistance = squaredDistance(first)
                    let secondDistance = squaredDistance(second)
                    let (near, far, nearDistance, farDistance) =
                        firstDistance <= secondDistance
                        ? (first, second, firstDistance, secondDistance)
                        : (second, first, secondDistance, firstDistance)
                    if farDistance <= limit {
                        pending.initializeElement(at: waiting, to: (far, farDistance))
                        waiting &+= 1
                    }
                    if nearDistance <= limit {
                        next = near
                        nextDistance = nearDistance
                        continue
                    }
                }
                // The waiting node nearest the top of the stack that is still within reach.
                repeat {
                    guard waiting > 0 else { return true }
                    waiting &-= 1
                    (next, nextDistance) = pending[waiting]
                } while nextDistance > limit
            }
        }
    }
}
