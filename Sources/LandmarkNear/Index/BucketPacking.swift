import Foundation

/// Packing of points into fixed-size buckets of nearby points, by recursive halving (a k-d
/// tree's leaves): a set is cut at the median of its wider side (longitude degrees scaled by
/// the cosine of latitude against latitude degrees) into two sets of whole buckets, until each
/// set is one bucket; each bucket is then sorted by latitude. Bucket b is positions
/// `b * bucketSize ..< min(count, (b + 1) * bucketSize)` of the returned order (only the last
/// bucket may be short), so buckets need no table of their own.
///
/// Why halving rather than sort-tile-recursive slices: slices are as wide in a city-dense
/// region as anywhere, so its buckets were strips a slice wide and a few kilometres tall, whose
/// bounding spheres (hundreds of kilometres across) pruned almost nothing; halved buckets are
/// about as wide as tall wherever they are.
///
///     BucketPacking.pack(coordinates, bucketSize: 8)   // original indices, bucket by bucket
enum BucketPacking {
    /// A point being packed: its keys beside it, so that the selections read no other array
    /// (through an index array, they were a sixth of loading 144k places, mostly cache misses).
    private struct Item {
        var latitude: Double
        var longitude: Double
        var index: Int32

        @inline(__always) func precedes(_ other: Item, byLongitude: Bool) -> Bool {
            let a = byLongitude ? longitude : latitude
            let b = byLongitude ? other.longitude : other.latitude
            return a < b || (a == b && index < other.index)
        }

        /// (latitude, longitude, index): the order within a bucket.
        @inline(__always) func isSouth(of other: Item) -> Bool {
            if latitude != other.latitude { return latitude < other.latitude }
            if longitude != other.longitude { return longitude < other.longitude }
            return index < other.index
        }
    }

    static func pack(_ coordinates: [Coordinate], bucketSize: Int) -> [Int32] {
        precondition(bucketSize > 0)
        guard !coordinates.isEmpty else { return [] }
        var items = coordinates.enumerated().map { Item(latitude: $1.latitude, longitude: $1.longitude, index: Int32($0)) }
        items.withUnsafeMutableBufferPointer { items in
            // Each pending range is cut until it is one bucket.
            var pending = [0..<items.count]
            while let range = pending.popLast() {
                if range.count <= bucketSize {
                    sortByLatitude(items, range)
                    continue
                }
                var south = Double.infinity
                var north = -Double.infinity
                var west = Double.infinity
                var east = -Double.infinity
                for item in items[range] {
                    south = min(south, item.latitude)
                    north = max(north, item.latitude)
                    west = min(west, item.longitude)
                    east = max(east, item.longitude)
                }
                let widest = max(abs(south), abs(north))
                let byLongitude = (east - west) * cos(min(89.0, widest) * Double.pi / 180) > north - south
                // Whole buckets on the first side, the short one (if any) stays last.
                let buckets = (range.count + bucketSize - 1) / bucketSize
                let cut = range.lowerBound + (buckets / 2) * bucketSize
                select(items, range, cut, byLongitude: byLongitude)
                pending.append(range.lowerBound..<cut)
                pending.append(cut..<range.upperBound)
            }
        }
        return items.map(\.index)
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
    /// `cut` on, by (key, index): quickselect, expected linear time. The partition is Lomuto's
    /// without branches on the data (each element is swapped into place and the boundary moves
    /// by the comparison's 0 or 1): Hoare's branchy partition mispredicted about every other
    /// comparison, and selections were a quarter of loading a million places.
    private static func select(_ items: UnsafeMutableBufferPointer<Item>, _ range: Range<Int>, _ cut: Int, byLongitude: Bool) {
        @inline(__always) func key(_ item: Item) -> Double { byLongitude ? item.longitude : item.latitude }
        @inline(__always) func bit(_ condition: Bool) -> Int { condition ? 1 : 0 }
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
            let pivotKey = key(pivot)
            var left = low
            for right in low..<high {
                let x = items[right]
                let k = key(x)
                let isLess = bit(k < pivotKey) | (bit(k == pivotKey) & bit(x.index < pivot.index))
                items[right] = items[left]
                items[left] = x
                left &+= isLess
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
