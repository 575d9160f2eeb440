import Foundation
@_spi(Inlining) import LandmarkNearCore
import Synchronization

/// Packing of points into fixed-size buckets of nearby points, by recursive halving (a k-d
/// tree's leaves): a set is cut at the median of its wider side (longitude degrees scaled by
/// the cosine of latitude against latitude degrees) into two sets of whole buckets, until each
/// set is one bucket; each bucket is then sorted by latitude. Bucket b is positions
/// `b * bucketSize ..< min(count, (b + 1) * bucketSize)` of the returned order (only the last
/// bucket may be short), so buckets need no table of their own.
///
/// Why halving rather than sort-tile-recursive slices: slices are as wide in a city-dense
/// region as anywhere, so its buckets would be strips a slice wide and a few kilometres tall,
/// whose bounding spheres (hundreds of kilometres across) prune almost nothing; halved buckets
/// are about as wide as tall wherever they are.
///
///     BucketPacking.pack(coordinates, bucketSize: 8)   // original indices, bucket by bucket
enum BucketPacking {
    /// A point being packed: its keys beside it, so that the selections read no other array
    /// (through an index array they mostly miss the cache: measured, see Benchmarks/LOG.md).
    ///
    /// 16 bytes, not 24: the longitude is kept as a `Float` (to about a metre), since it only
    /// steers cuts (any cut is correct: a bucket's bounds come from its points' coordinates),
    /// and the selections, passes over the whole set, are bound by memory (measured; see
    /// Benchmarks/LOG.md). The latitude stays exact: it orders each bucket, and the index's sweeps
    /// rely on that order.
    private struct Item {
        var latitude: Double
        var longitude: Float
        var index: Int32

        @inline(__always) func precedes(_ other: Item, byLongitude: Bool) -> Bool {
            let a = byLongitude ? Double(longitude) : latitude
            let b = byLongitude ? Double(other.longitude) : other.latitude
            return a < b || (a == b && index < other.index)
        }

        /// `precedes` as 1 or 0, computed without branches (for the partitions).
        @inline(__always) func precedesBit(_ other: Item, byLongitude: Bool) -> Int {
            let a = byLongitude ? Double(longitude) : latitude
            let b = byLongitude ? Double(other.longitude) : other.latitude
            @inline(__always) func bit(_ condition: Bool) -> Int { condition ? 1 : 0 }
            return bit(a < b) | (bit(a == b) & bit(index < other.index))
        }

        /// (latitude, longitude to a metre, index): the order within a bucket.
        @inline(__always) func isSouth(of other: Item) -> Bool {
            if latitude != other.latitude { return latitude < other.latitude }
            if longitude != other.longitude { return longitude < other.longitude }
            return index < other.index
        }
    }

    /// Sets of at least this many points are packed on two threads.
    static let parallelFrom = 65_536

    /// `parallelFrom`: sets of at least this many points are packed on two threads (the tests
    /// compare both ways).
    static func pack(_ coordinates: [Coordinate], bucketSize: Int, parallelFrom: Int = BucketPacking.parallelFrom) -> [Int32] {
        precondition(bucketSize > 0)
        guard !coordinates.isEmpty else { return [] }
        var items = coordinates.enumerated().map { Item(latitude: $1.latitude, longitude: Float($1.longitude), index: Int32($0)) }
        guard items.count >= parallelFrom else {
            items.withUnsafeMutableBufferPointer { pack($0, 0..<$0.count, bucketSize: bucketSize) }
            return items.map(\.index)
        }
        // The first cut here, then its two sides on two threads: the sides are independent,
        // and packing is a fifth of loading a catalog (measured; see Benchmarks/LOG.md). Each
        // thread packs an array of its own (the second side is copied out: 8 MB at a million
        // places), so no memory is shared.
        // (No scratch: the first cut selects in place; either way gives the same cut.)
        let cut = items.withUnsafeMutableBufferPointer { cutOnce($0, 0..<$0.count, bucketSize: bucketSize, scratch: nil) }
        let second = Array(items[cut...])
        items.removeSubrange(cut...)
        let sides = Mutex([items, second])
        items = []
        let packed = Mutex<[[Int32]]>([[], []])
        DispatchQueue.concurrentPerform(iterations: 2) { side in
            // Taken out of the slot, the side's array is unique: packing it copies nothing.
            var part: [Item] = []
            sides.withLock { swap(&part, &$0[side]) }
            part.withUnsafeMutableBufferPointer { pack($0, 0..<$0.count, bucketSize: bucketSize) }
            let order = part.map(\.index)
            part = []
            packed.withLock { $0[side] = order }
        }
        return packed.withLock { $0[0] + $0[1] }
    }

    /// Sets of at least this many points take their extent and their median's bracket from a
    /// sample (`sample`, `selectBracketed`).
    static let sampleFrom = 4_096

    /// Cuts `items[range]` until each set is one bucket, each then sorted by latitude.
    private static func pack(_ items: UnsafeMutableBufferPointer<Item>, _ range: Range<Int>, bucketSize: Int) {
        // Room for the out-of-place partitions of the sets under `sampleFrom`.
        let scratch = UnsafeMutableBufferPointer<Item>.allocate(capacity: min(range.count, sampleFrom))
        defer { scratch.deallocate() }
        // Each pending range is cut until it is one bucket.
        var pending = [range]
        while let range = pending.popLast() {
            if range.count <= bucketSize {
                sortByLatitude(items, range)
                continue
            }
            let cut = cutOnce(items, range, bucketSize: bucketSize, scratch: scratch)
            pending.append(range.lowerBound..<cut)
            pending.append(cut..<range.upperBound)
        }
    }

    /// Cuts `items[range]` (more than a bucket) at the median of its wider side into two sets
    /// of whole buckets (the short one, if any, stays last); returns where the second starts.
    private static func cutOnce(
        _ items: UnsafeMutableBufferPointer<Item>, _ range: Range<Int>, bucketSize: Int, scratch: UnsafeMutableBufferPointer<Item>?
    ) -> Int {
        let sampled = range.count >= sampleFrom
        let sample = sampled ? self.sample(items, range) : []
        var extent = Extent()
        // A large set's extent is its sample's: the side only steers the cut (either cut is
        // correct), and a full pass for it costs a fifth of the packing. The sample's cuts also
        // make faster buckets, likely because a sample leaves out stray points far from the rest
        // (both measured; see Benchmarks/LOG.md).
        if sampled {
            for item in sample { extent.add(item) }
        } else {
            for item in items[range] { extent.add(item) }
        }
        let byLongitude = extent.isWiderThanTall
        let buckets = (range.count + bucketSize - 1) / bucketSize
        let cut = range.lowerBound + (buckets / 2) * bucketSize
        if sampled {
            selectBracketed(items, range, cut, byLongitude: byLongitude, sample: sample)
        } else {
            // Below `sampleFrom` nothing is sampled again, so the order a partition leaves
            // changes no cut: the faster out-of-place partition may take over (`select`).
            select(items, range, cut, byLongitude: byLongitude, scratch: range.count <= (scratch?.count ?? 0) ? scratch : nil)
        }
        return cut
    }

    /// The box of the points seen.
    private struct Extent {
        var south = Double.infinity
        var north = -Double.infinity
        var west = Double.infinity
        var east = -Double.infinity

        @inline(__always) mutating func add(_ item: Item) {
            south = min(south, item.latitude)
            north = max(north, item.latitude)
            west = min(west, Double(item.longitude))
            east = max(east, Double(item.longitude))
        }

        /// Longitude degrees scaled by the cosine of the latitude farthest from the equator.
        var isWiderThanTall: Bool {
            let widest = max(abs(south), abs(north))
            return (east - west) * cos(min(89.0, widest) * Double.pi / 180) > north - south
        }
    }

    /// About n^(2/3) of the n points of `items[range]`, at even strides.
    private static func sample(_ items: UnsafeMutableBufferPointer<Item>, _ range: Range<Int>) -> [Item] {
        let n = range.count
        let m = min(n, Int(pow(Double(n), 2.0 / 3.0)))
        let stride = Double(n) / Double(m)
        return (0..<m).map { items[range.lowerBound + Int(Double($0) * stride)] }
    }

    /// `select` with its first pivots from a sample, after Floyd and Rivest: two points of the
    /// sample bracket the cut's rank with a margin of three standard deviations (a rank's in a
    /// sample of m is at most √m / 2); one pass moves what precedes the lower point to the
    /// front, a second over the rest moves what does not follow the upper point next, and the
    /// cut then lies in the narrow middle (a few per cent of the set), which `select`
    /// finishes. About 1.6 passes over a large set instead of quickselect's 2.7. Any sample is
    /// correct: a bracket that misses the cut only leaves `select` a larger part.
    private static func selectBracketed(
        _ items: UnsafeMutableBufferPointer<Item>, _ range: Range<Int>, _ cut: Int, byLongitude: Bool, sample: [Item]
    ) {
        let sorted = sample.sorted { $0.precedes($1, byLongitude: byLongitude) }
        let m = sorted.count
        let rank = Double(cut - range.lowerBound) / Double(range.count) * Double(m)
        let margin = 1.5 * Double(m).squareRoot()
        let lowerPivot = sorted[max(0, min(m - 1, Int(rank - margin)))]
        let upperPivot = sorted[max(0, min(m - 1, Int(rank + margin)))]
        let lower = partition(items, range) { $0.precedes(lowerPivot, byLongitude: byLongitude) }
        if cut < lower {
            select(items, range.lowerBound..<lower, cut, byLongitude: byLongitude)
            return
        }
        let upper = partition(items, lower..<range.upperBound) { !upperPivot.precedes($0, byLongitude: byLongitude) }
        if cut >= upper {
            select(items, upper..<range.upperBound, cut, byLongitude: byLongitude)
        } else {
            select(items, lower..<upper, cut, byLongitude: byLongitude)
        }
    }

    /// Moves the items of `range` for which `isFront` holds before the others (Lomuto's
    /// partition without branches on the data, as in `select`); returns where the others start.
    @inline(__always)
    private static func partition(
        _ items: UnsafeMutableBufferPointer<Item>, _ range: Range<Int>, _ isFront: (Item) -> Bool
    ) -> Int {
        var front = range.lowerBound
        for i in range {
            let x = items[i]
            items[i] = items[front]
            items[front] = x
            front &+= isFront(x) ? 1 : 0
        }
        return front
    }

    /// `partition` out of place: each item is written to `scratch` at the next front place and
    /// at the next back place (from the end), and only one of the two places moves on, so that
    /// no item is read from where another was just written (Lomuto's swaps read back each
    /// place they had just written); the result is copied back, the others in reverse order.
    /// `isFront` gives 1 or 0.
    @inline(__always)
    private static func partition(
        _ items: UnsafeMutableBufferPointer<Item>, _ range: Range<Int>, through scratch: UnsafeMutableBufferPointer<Item>,
        _ isFront: (Item) -> Int
    ) -> Int {
        let source = items.baseAddress.unsafelyUnwrapped + range.lowerBound
        let target = scratch.baseAddress.unsafelyUnwrapped
        var front = 0
        var back = range.count - 1
        // At item k: front + (count − 1 − back) = k, so front <= back: both places are in range.
        for k in 0..<range.count {
            let x = source[k]
            let bit = isFront(x)
            target[front] = x
            target[back] = x
            front &+= bit
            back &-= 1 &- bit
        }
        source.update(from: target, count: range.count)
        return range.lowerBound + front
    }

    /// Sorts `items[range]` south to north: insertion sort, a bucket is small.
    private static func sortByLatitude(_ items: UnsafeMutableBufferPointer<Item>, _ range: Range<Int>) {
        guard range.count > 1 else { return }
        for i in (range.lowerBound + 1)..<range.upperBound {
            let item = items[i]
            var j = i
            while j > range.lowerBound, item.isSouth(of: items[j - 1]) {
                items[j] = items[j - 1]
                j -= 1
            }
            items[j] = item
        }
    }

    /// Reorders `items[range]` so that every element before `cut` precedes every element from
    /// `cut` on, by (key, index): quickselect, expected linear time. The partitions are without
    /// branches on the data (a branchy partition, as Hoare's, mispredicts about every other
    /// comparison, and selections are a quarter of loading a million places; see
    /// Benchmarks/LOG.md): Lomuto's in place (each element swapped into place, the boundary moved
    /// by the comparison's 0 or 1), or, given `scratch` (at least the range's size), out of place
    /// (`partition(_:_:through:_:)`, faster: measured, see Benchmarks/LOG.md). The two leave the
    /// items in different orders, which matters where a sample of the order steers later cuts
    /// (`cutOnce`).
    private static func select(
        _ items: UnsafeMutableBufferPointer<Item>, _ range: Range<Int>, _ cut: Int, byLongitude: Bool,
        scratch: UnsafeMutableBufferPointer<Item>? = nil
    ) {
        var low = range.lowerBound
        var high = range.upperBound - 1
        while low < high {
            // Median of three as the pivot, moved to the end.
            let middle = low + (high - low) / 2
            let a = items[low]
            let b = items[middle]
            let c = items[high]
            let ab = a.precedes(b, byLongitude: byLongitude)
            let bc = b.precedes(c, byLongitude: byLongitude)
            let ac = a.precedes(c, byLongitude: byLongitude)
            let median = ab == bc ? middle : ab == ac ? high : low
            items.swapAt(median, high)
            let pivot = items[high]
            let left =
                if let scratch {
                    partition(items, low..<high, through: scratch) { $0.precedesBit(pivot, byLongitude: byLongitude) }
                } else {
                    partition(items, low..<high) { $0.precedesBit(pivot, byLongitude: byLongitude) == 1 }
                }
            items.swapAt(left, high)
            // Now items[low..<left] precede the pivot, at `left`, and items[left + 1...high] follow it.
            if cut < left {
                high = left - 1
            } else if cut > left {
                low = left + 1
            } else {
                return
            }
        }
    }
}
