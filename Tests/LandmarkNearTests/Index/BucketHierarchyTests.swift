import Testing

@_spi(Inlining) @testable import LandmarkNearCore
@_spi(Inlining) @testable import LandmarkNearGeodesy
@testable import LandmarkNearIndex
@testable import LandmarkNearServer

/// `BucketHierarchy`'s walk against brute force over the buckets' points: it must reach every
/// bucket holding a point within the bound (what makes `nearest` exact), each once, and none
/// whose every point is farther than the bound's box allows; with a bound that shrinks to the
/// nearest chord seen, it must end with the nearest point's chord.
@Suite(.suiteTimeLimit) struct BucketHierarchyTests {
    /// Points in slot order (x, y, z after one another), in buckets of `bucketSize`.
    struct Slots {
        let coordinates: [Coordinate]
        let points: [Double]
        let bucketSize: Int

        init(_ coordinates: [Coordinate], bucketSize: Int) {
            self.coordinates = coordinates
            points = coordinates.flatMap { coordinate -> [Double] in
                let p = EarthCenteredPoint(coordinate)
                return [p.x, p.y, p.z]
            }
            self.bucketSize = bucketSize
        }

        var bucketCount: Int { (points.count / 3 + bucketSize - 1) / bucketSize }

        func point(_ slot: Int) -> EarthCenteredPoint {
            EarthCenteredPoint(x: points[3 * slot], y: points[3 * slot + 1], z: points[3 * slot + 2])
        }

        func slots(ofBucket bucket: Int) -> Range<Int> {
            (bucket * bucketSize)..<min(points.count / 3, (bucket + 1) * bucketSize)
        }

        /// The least chord from `query` to a point of `bucket`.
        func nearestChord(in bucket: Int, from query: EarthCenteredPoint) -> Double {
            slots(ofBucket: bucket).map { query.chord(to: point($0)) }.min() ?? .infinity
        }
    }

    enum PointSet: String, CaseIterable, CustomTestStringConvertible {
        /// Packed as the index packs them (near points in a bucket).
        case packedCities
        /// In the generator's order: buckets spread over the world, boxes as wide as it.
        case unpackedHard

        func slots(bucketSize: Int) throws -> Slots {
            switch self {
            case .packedCities:
                let cities = try IndexTestSupport.citySample()
                let order = BucketPacking.pack(cities, bucketSize: bucketSize)
                return Slots(order.map { cities[Int($0)] }, bucketSize: bucketSize)
            case .unpackedHard:
                return Slots(IndexTestSupport.hardLandmarks(count: 1_000, seed: 11), bucketSize: bucketSize)
            }
        }

        var testDescription: String { rawValue }
    }

    @Test(arguments: PointSet.allCases, [1, 7, 32])
    func aFixedBoundReachesEveryBucketWithAPointWithinIt(_ set: PointSet, bucketSize: Int) throws {
        let slots = try set.slots(bucketSize: bucketSize)
        let hierarchy = slots.points.withUnsafeBufferPointer { BucketHierarchy(points: $0, bucketSize: bucketSize) }
        var rng = IndexTestSupport.SeededGenerator(seed: UInt64(bucketSize))
        var reachedSome = 0
        for _ in 0..<300 {
            let query = EarthCenteredPoint(IndexTestSupport.queryPoint(&rng, near: slots.coordinates))
            let bound = [0.0, 10_000, 300_000, 3_000_000][Int.random(in: 0..<4, using: &rng)]
            var reached: [Int] = []
            let finished = hierarchy.forEachBucket(within: bound, of: query) { bucket in
                reached.append(bucket)
                return bound
            }
            #expect(finished)
            #expect(Set(reached).count == reached.count, "a bucket reached twice")
            let needed = (0..<slots.bucketCount).filter { slots.nearestChord(in: $0, from: query) <= bound }
            #expect(Set(needed).isSubset(of: reached), "a bucket with a point within \(bound) m was skipped")
            if !needed.isEmpty { reachedSome += 1 }
        }
        #expect(reachedSome > 30)  // the bounds must catch points, or the check proves little
    }

    @Test(arguments: PointSet.allCases)
    func aShrinkingBoundEndsAtTheNearestChord(_ set: PointSet) throws {
        let slots = try set.slots(bucketSize: 32)
        let hierarchy = slots.points.withUnsafeBufferPointer { BucketHierarchy(points: $0, bucketSize: 32) }
        var rng = IndexTestSupport.SeededGenerator(seed: 5)
        var walkedLess = 0
        for _ in 0..<300 {
            let query = EarthCenteredPoint(IndexTestSupport.queryPoint(&rng, near: slots.coordinates))
            var best = Double.infinity
            var visits = 0
            _ = hierarchy.forEachBucket(within: best, of: query) { bucket in
                visits += 1
                best = min(best, slots.nearestChord(in: bucket, from: query))
                return best
            }
            let expected = (0..<slots.bucketCount).map { slots.nearestChord(in: $0, from: query) }.min()
            #expect(best == expected)
            if visits < slots.bucketCount / 4 { walkedLess += 1 }
        }
        // Pruning must work for packed buckets (else the walk is a scan); spread ones can't prune.
        if set == .packedCities { #expect(walkedLess > 250) }
    }

    @Test func aVisitThatReturnsFalseEndsTheWalk() throws {
        let slots = try PointSet.packedCities.slots(bucketSize: 32)
        let hierarchy = slots.points.withUnsafeBufferPointer { BucketHierarchy(points: $0, bucketSize: 32) }
        var visits = 0
        let finished = hierarchy.forEachBucket(within: .infinity, of: slots.point(0)) { _ in
            visits += 1
            return visits < 3 ? .infinity : nil
        }
        #expect(!finished && visits == 3)
    }

    @Test func noPointsReachNothing() {
        let hierarchy = [Double]().withUnsafeBufferPointer { BucketHierarchy(points: $0, bucketSize: 32) }
        let query = EarthCenteredPoint(Coordinate(latitude: 0, longitude: 0))
        #expect(
            hierarchy.forEachBucket(within: .infinity, of: query) { _ in
                Issue.record("a bucket was visited")
                return .infinity
            })
    }
}
