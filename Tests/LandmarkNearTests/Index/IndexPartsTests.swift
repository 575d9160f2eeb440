import Testing

@testable import LandmarkNear

@Suite(.suiteTimeLimit) struct IndexPartsTests {
    @Test(arguments: [1, 2, 3, 10, 64, 65, 150])
    func smallestValuesKeepsTheKSmallest(_ k: Int) {
        var rng = IndexTestSupport.SeededGenerator(seed: UInt64(k))
        let values = (0..<300).map { _ in Double.random(in: 0...100, using: &rng) }
        var best = SmallestValues(capacity: k)
        #expect(!best.isFull && best.bound == .infinity)
        for value in values {
            best.offer(value)
            #expect(best.bound >= values.sorted()[k - 1])  // a safe pruning bound all along
        }
        best.settle()
        #expect(best.isFull)
        #expect(best.bound == values.sorted()[k - 1])
    }

    /// A large k over many landmarks must not cost n·k (the CLI takes any -k).
    @Test func largeLimitOverManyLandmarksIsExact() throws {
        let points = try IndexTestSupport.citySample()
        let index = LandmarkIndex(coordinates: points)
        let point = Coordinate(latitude: 48.85, longitude: 2.35)
        let answers = index.nearest(to: point, limit: 5000)
        #expect(IndexTestSupport.agree(answers, BruteForceReference(points).nearest(to: point, limit: 5000)))
        #expect(index.nearest(to: point, limit: points.count - 1).count == points.count - 1)
    }

    /// Issue 5: at most 64 bytes a landmark.
    @Test func indexHoldsAtMost64BytesALandmark() throws {
        let points = try IndexTestSupport.citySample()
        let bytes = LandmarkIndex(coordinates: points).approximateByteCount
        #expect(bytes <= 64 * points.count)
        #expect(bytes >= 44 * points.count)  // the slots' coordinates, points and indices alone are 44
    }

    @Test func packingKeepsEveryPointOnceInSlicesOfWholeBuckets() {
        let points = IndexTestSupport.hardLandmarks(count: 1000, seed: 9)
        let layout = BucketPacking.pack(points, bucketSize: 8)
        #expect(layout.order.sorted() == (0..<Int32(points.count)).map { $0 })
        #expect(layout.sliceLength % 8 == 0)
        // Within a slice, south to north; slices west to east.
        for start in stride(from: 0, to: points.count, by: layout.sliceLength) {
            let slice = layout.order[start..<min(points.count, start + layout.sliceLength)].map { points[Int($0)] }
            #expect(zip(slice, slice.dropFirst()).allSatisfy { $0.latitude <= $1.latitude })
            if start > 0 {
                let previous = layout.order[(start - layout.sliceLength)..<start].map { points[Int($0)].longitude }
                #expect(previous.max()! <= slice.map(\.longitude).min()!)
            }
        }
    }

    @Test func geosTreeFindsTheBoxesMeetingAQuery() {
        let boxes = [
            GeoBox(minLongitude: 0, minLatitude: 0, maxLongitude: 1, maxLatitude: 1),
            GeoBox(minLongitude: 179, minLatitude: -10, maxLongitude: 180, maxLatitude: -9),
            GeoBox(minLongitude: 5, minLatitude: 5, maxLongitude: 5, maxLatitude: 5),
        ]
        let tree = GEOSBoxTree(boxes: boxes)
        var hits: [Int32] = []
        tree.query(GeoBox(minLongitude: 0.5, minLatitude: 0.5, maxLongitude: 5, maxLatitude: 5), into: &hits)
        #expect(hits.sorted() == [0, 2])
        hits = []
        tree.query(GeoBox(minLongitude: 180, minLatitude: -9.5, maxLongitude: 180, maxLatitude: -9.5), into: &hits)
        #expect(hits == [1])
        hits = []
        tree.query(GeoBox(minLongitude: -180, minLatitude: -90, maxLongitude: -1, maxLatitude: 90), into: &hits)
        #expect(hits.isEmpty)
    }
}
