/// The result of `BucketPacking.pack`: the order of the points, slice by slice and bucket by
/// bucket, and the length of a slice (a whole number of buckets; the last slice may be shorter).
struct BucketLayout {
    var order: [Int32]
    var sliceLength: Int
}

/// Sort-Tile-Recursive packing of points into fixed-size buckets of nearby points: sorted by
/// longitude into vertical slices, each slice sorted by latitude and cut into runs of
/// `bucketSize`. Bucket b is positions `b * bucketSize ..< min(count, (b + 1) * bucketSize)`
/// of the returned order, so buckets need no table of their own.
///
///     BucketPacking.pack(coordinates, bucketSize: 8).order   // original indices, bucket by bucket
enum BucketPacking {
    static func pack(_ coordinates: [Coordinate], bucketSize: Int) -> BucketLayout {
        precondition(bucketSize > 0)
        let n = coordinates.count
        guard n > 0 else { return BucketLayout(order: [], sliceLength: bucketSize) }
        let bucketCount = (n + bucketSize - 1) / bucketSize
        var sliceCount = Int(Double(bucketCount).squareRoot().rounded(.up))
        sliceCount = max(1, sliceCount)
        let bucketsPerSlice = (bucketCount + sliceCount - 1) / sliceCount
        let sliceLength = bucketsPerSlice * bucketSize
        var order = (0..<Int32(n)).sorted { a, b in
            let ca = coordinates[Int(a)]
            let cb = coordinates[Int(b)]
            if ca.longitude != cb.longitude { return ca.longitude < cb.longitude }
            if ca.latitude != cb.latitude { return ca.latitude < cb.latitude }
            return a < b
        }
        var start = 0
        while start < n {
            let end = min(n, start + sliceLength)
            order[start..<end].sort { a, b in
                let ca = coordinates[Int(a)]
                let cb = coordinates[Int(b)]
                if ca.latitude != cb.latitude { return ca.latitude < cb.latitude }
                if ca.longitude != cb.longitude { return ca.longitude < cb.longitude }
                return a < b
            }
            start = end
        }
        return BucketLayout(order: order, sliceLength: sliceLength)
    }
}
