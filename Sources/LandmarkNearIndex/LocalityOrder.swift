@_spi(Inlining) import LandmarkNearCore

/// The order in which a batch of nearest-landmark searches asks the index
/// (`LandmarkIndex.forEachNearest(of:limit:within:_:)`, and the batches of a `nearest`
/// stream): along a Z-order (Morton) curve over cells of 360/256° of longitude by 180/256° of
/// latitude, so that searches one after another read nearby buckets and take the same paths
/// (near land, or far at sea). The answers are the same in any order (the index only reads);
/// only the time differs.
///
/// Why: queries one after another may alternate between places and the open sea (the benchmark's
/// do). Asked in this order, searches one after another read the same cache lines and take the same
/// branches: they miss the cache and mispredict less, for the same instructions (measured; see
/// Benchmarks/LOG.md). A batch holds a few thousand queries over 65,536 cells, so finer cells would
/// change almost nothing.
///
///     let order = LocalityOrder.positions(of: [paris, sydney, london])
///     order   // [1, 2, 0]: Sydney's southern cell first, then London's and Paris's
package enum LocalityOrder {
    /// The positions 0..<coordinates.count, sorted by their cells along the curve (ties by
    /// position): a radix sort of the 16-bit cell keys, two passes of a byte each (cheaper than
    /// the library's sort of packed keys; see Benchmarks/LOG.md).
    package static func positions(of coordinates: [Coordinate]) -> [Int] {
        var keys = [UInt16](repeating: 0, count: coordinates.count)
        for (position, coordinate) in coordinates.enumerated() {
            let row = cell(coordinate.latitude + 90, per: 180)
            let column = cell(coordinate.longitude + 180, per: 360)
            keys[position] = UInt16(truncatingIfNeeded: interleave(column) | interleave(row) << 1)
        }
        var order = Array(0..<coordinates.count)
        var sorted = order
        for shift: UInt16 in [0, 8] {
            // Counting sort by one byte of the key, stable: the first pass's order holds within
            // the second's equal bytes.
            var starts = [Int](repeating: 0, count: 257)
            for position in order { starts[Int(keys[position] >> shift & 0xFF) + 1] += 1 }
            for digit in 0..<256 { starts[digit + 1] += starts[digit] }
            for position in order {
                let digit = Int(keys[position] >> shift & 0xFF)
                sorted[starts[digit]] = position
                starts[digit] += 1
            }
            swap(&order, &sorted)
        }
        return order
    }

    /// `value` in [0, range] as one of 256 cells (0 for NaN, clamped at the ends).
    @inline(__always) private static func cell(_ value: Double, per range: Double) -> UInt32 {
        let scaled = value / range * 256
        guard scaled > 0 else { return 0 }
        return scaled >= 255 ? 255 : UInt32(scaled)
    }

    /// The 8 low bits of `value` spread to the even bits of the result.
    @inline(__always) private static func interleave(_ value: UInt32) -> UInt32 {
        var x = value & 0xFF
        x = (x | x << 4) & 0x0F0F
        x = (x | x << 2) & 0x3333
        x = (x | x << 1) & 0x5555
        return x
    }
}
