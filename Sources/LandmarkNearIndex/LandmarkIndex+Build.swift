import CLinux
@_spi(Inlining) import LandmarkNearCore
@_spi(Inlining) import LandmarkNearGeodesy

/// Building the index: packing, the slots' tables, the buckets' spheres, the directories and
/// the hierarchy, on two threads for large sets.
extension LandmarkIndex {
    /// What `init` makes beside the rest, on another thread for a large set: the directory's
    /// lists and the buckets' spheres.
    struct SideTables: Sendable {
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
    static func bucketSpheres(points: UnsafeBufferPointer<Double>, bucketSize size: Int) -> [Double] {
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
    static func slotTables(
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
    static func slotTables(
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
    static func writePoints(of slots: [Coordinate], into points: UnsafeMutableBufferPointer<Double>) {
        for (k, coordinate) in slots.enumerated() {
            let p = EarthCenteredPoint(coordinate)
            points.initializeElement(at: 3 * k, to: p.x)
            points.initializeElement(at: 3 * k + 1, to: p.y)
            points.initializeElement(at: 3 * k + 2, to: p.z)
        }
    }
}
