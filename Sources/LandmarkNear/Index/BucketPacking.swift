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
    static func pack(_ coordinates: [Coordinate], bucketSize: Int) -> [Int32] {
        precondition(bucketSize > 0)
        var order = (0..<Int32(coordinates.count)).map { $0 }
        guard !coordinates.isEmpty else { return order }
        // Each pending range of `order` is cut until it is one bucket.
        var pending = [0..<coordinates.count]
        while let range = pending.popLast() {
            if range.count <= bucketSize {
                order[range].sort { a, b in
                    let ca = coordinates[Int(a)]
                    let cb = coordinates[Int(b)]
                    if ca.latitude != cb.latitude { return ca.latitude < cb.latitude }
                    if ca.longitude != cb.longitude { return ca.longitude < cb.longitude }
                    return a < b
                }
                continue
            }
            var south = Double.infinity
            var north = -Double.infinity
            var west = Double.infinity
            var east = -Double.infinity
            for i in range {
                let c = coordinates[Int(order[i])]
                south = min(south, c.latitude)
                north = max(north, c.latitude)
                west = min(west, c.longitude)
                east = max(east, c.longitude)
            }
            let widest = max(abs(south), abs(north))
            let byLongitude = (east - west) * cos(min(89.0, widest) * Double.pi / 180) > north - south
            // Whole buckets on the first side, the short one (if any) stays last.
            let buckets = (range.count + bucketSize - 1) / bucketSize
            let cut = range.lowerBound + (buckets / 2) * bucketSize
            if byLongitude {
                select(&order, range, cut) { coordinates[Int($0)].longitude }
            } else {
                select(&order, range, cut) { coordinates[Int($0)].latitude }
            }
            pending.append(range.lowerBound..<cut)
            pending.append(cut..<range.upperBound)
        }
        return order
    }

    /// Reorders `order[range]` so that every element before `cut` precedes every element from
    /// `cut` on, by (key, index): Hoare's selection (quickselect), expected linear time.
    private static func select(_ order: inout [Int32], _ range: Range<Int>, _ cut: Int, key: (Int32) -> Double) {
        func precedes(_ a: Int32, _ b: Int32) -> Bool {
            let ka = key(a)
            let kb = key(b)
            return ka < kb || (ka == kb && a < b)
        }
        var low = range.lowerBound
        var high = range.upperBound - 1
        while low < high {
            // Median of three as the pivot.
            let middle = low + (high - low) / 2
            var a = order[low]
            var b = order[middle]
            let c = order[high]
            if precedes(b, a) { swap(&a, &b) }
            let pivot = precedes(c, a) ? a : precedes(b, c) ? b : c
            var i = low
            var j = high
            while i <= j {
                while precedes(order[i], pivot) { i += 1 }
                while precedes(pivot, order[j]) { j -= 1 }
                if i <= j {
                    order.swapAt(i, j)
                    i += 1
                    j -= 1
                }
            }
            // Now order[low...j] precede the pivot's place and order[i...high] follow it.
            if cut <= j {
                high = j
            } else if cut >= i {
                low = i
            } else {
                return
            }
        }
    }
}
