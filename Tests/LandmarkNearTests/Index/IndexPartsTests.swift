import Testing

@_spi(Inlining) @testable import LandmarkNearCore
@_spi(Inlining) @testable import LandmarkNearGeodesy
@testable import LandmarkNearIndex

@Suite(.suiteTimeLimit) struct IndexPartsTests {
    @Test(arguments: [1, 2, 3, 10, 64, 65, 150])
    func smallestValuesKeepsTheKSmallest(_ k: Int) {
        var rng = IndexTestSupport.SeededGenerator(seed: UInt64(k))
        let values = (0..<300).map { _ in Double.random(in: 0...100, using: &rng) }
        // (`#expect` takes copies; a `SmallestValues` is noncopyable, so its readings are taken first.)
        var best = SmallestValues(capacity: k)
        var (full, bound) = (best.isFull, best.bound)
        #expect(!full && bound == .infinity)
        for (i, value) in values.enumerated() {
            best.offer(value)
            (full, bound) = (best.isFull, best.bound)
            #expect(bound >= values.sorted()[k - 1])  // a safe pruning bound all along
            #expect(full == (i + 1 >= k))
            if full { #expect(bound == values[0...i].sorted()[k - 1]) }  // the k-th smallest so far
        }
        #expect(bound == values.sorted()[k - 1])
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

    /// From `parallelFrom` landmarks on, the index is built on two threads (the slots' tables in
    /// halves, the directory's lists and the buckets' spheres beside the rest): its answers are
    /// those of the index built on one, on real places and on the hard set, and a tenth of its
    /// nearest and a tenth of its 100 km answers are brute force's.
    @Test(arguments: ["cities", "hard"])
    func indexBuiltOnTwoThreadsAnswersAsBuiltOnOne(_ set: String) throws {
        let points = set == "cities" ? try IndexTestSupport.citySample() : IndexTestSupport.hardLandmarks(count: 20_000, seed: 33)
        let one = LandmarkIndex(coordinates: points, parallelFrom: .max)
        let two = LandmarkIndex(coordinates: points, parallelFrom: 1_000)
        #expect(one.approximateByteCount == two.approximateByteCount)
        let reference = BruteForceReference(points)
        var rng = IndexTestSupport.SeededGenerator(seed: 34)
        var differences = 0
        var wrong = 0
        for k in 0..<1_500 {
            // Half near a landmark (within about 20 km), half anywhere.
            let near = points[Int.random(in: 0..<points.count, using: &rng)]
            let query =
                k % 2 == 0
                ? Coordinate(
                    latitude: max(-90, min(90, near.latitude + .random(in: -0.2...0.2, using: &rng))),
                    longitude: max(-180, min(180, near.longitude + .random(in: -0.2...0.2, using: &rng))))
                : Coordinate(latitude: .random(in: -90...90, using: &rng), longitude: .random(in: -180...180, using: &rng))
            let nearest = two.nearest(to: query, limit: 3)
            if nearest != one.nearest(to: query, limit: 3) { differences += 1 }
            if two.within(8046.72, of: query) != one.within(8046.72, of: query) { differences += 1 }
            if two.within(100_000, of: query) != one.within(100_000, of: query) { differences += 1 }
            if k % 10 == 0, !IndexTestSupport.agree(nearest, reference.nearest(to: query, limit: 3)) { wrong += 1 }
            if k % 10 == 5, !IndexTestSupport.agree(two.within(100_000, of: query), reference.within(100_000, of: query)) { wrong += 1 }
        }
        #expect(differences == 0)
        #expect(wrong == 0)
    }

    @Test func packingKeepsEveryPointOnceInWholeBucketsSortedByLatitude() {
        let points = IndexTestSupport.hardLandmarks(count: 1000, seed: 9)
        let order = BucketPacking.pack(points, bucketSize: 8)
        #expect(order.sorted() == (0..<Int32(points.count)).map { $0 })
        for start in stride(from: 0, to: points.count, by: 8) {
            let bucket = order[start..<min(points.count, start + 8)].map { points[Int($0)] }
            #expect(zip(bucket, bucket.dropFirst()).allSatisfy { $0.latitude <= $1.latitude })
        }
    }

    /// Large sets take the sampled cut (`selectBracketed`) and, from `parallelFrom` on, two
    /// threads: every cut still splits its set at the exact count, all of one side before all
    /// of the other by one key (the longitude as a `Float`, or the latitude; ties by index),
    /// and the threads give the order one thread gives.
    @Test(arguments: ["mixed", "duplicates", "sorted"])
    func largePackingsCutAtExactMediansAndThreadsChangeNothing(_ kind: String) {
        var points = IndexTestSupport.hardLandmarks(count: 30_000, seed: 21)
        switch kind {
        case "duplicates":
            // Most points one place: the order is the indices' alone.
            points = points.enumerated().map { $0 % 10 == 0 ? $1 : Coordinate(latitude: 12.5, longitude: -7.25) }
        case "sorted": points.sort { ($0.longitude, $0.latitude) < ($1.longitude, $1.latitude) }
        default: break
        }
        let size = 32
        let order = BucketPacking.pack(points, bucketSize: size, parallelFrom: Int.max)
        #expect(BucketPacking.pack(points, bucketSize: size, parallelFrom: 1_000) == order)
        #expect(order.sorted() == (0..<Int32(points.count)).map { $0 })
        func separated(_ left: ArraySlice<Int32>, _ right: ArraySlice<Int32>, _ key: (Coordinate) -> Double) -> Bool {
            func precedes(_ a: Int32, _ b: Int32) -> Bool { (key(points[Int(a)]), a) < (key(points[Int(b)]), b) }
            return precedes(left.max(by: precedes)!, right.min(by: precedes)!)
        }
        var pending = [0..<points.count]
        var cuts = 0
        while let range = pending.popLast() {
            guard range.count > size else { continue }
            let cut = range.lowerBound + (range.count + size - 1) / size / 2 * size
            let left = order[range.lowerBound..<cut]
            let right = order[cut..<range.upperBound]
            let separatedByLongitude = separated(left, right) { Double(Float($0.longitude)) }
            #expect(separatedByLongitude || separated(left, right, \.latitude), "cut at \(cut) of \(range)")
            cuts += 1
            pending += [range.lowerBound..<cut, cut..<range.upperBound]
        }
        #expect(cuts == (points.count + size - 1) / size - 1)
    }

    /// A dense band 40° wide and 0.1° tall is cut across its length only: buckets are side by
    /// side (their longitude ranges do not overlap), not strips the band's width.
    @Test func packingHalvesTheWiderSide() {
        var rng = IndexTestSupport.SeededGenerator(seed: 4)
        let points = (0..<4096).map { _ in
            Coordinate(latitude: 45 + Double.random(in: 0..<0.1, using: &rng), longitude: Double.random(in: 0..<40, using: &rng))
        }
        let order = BucketPacking.pack(points, bucketSize: 32)
        let widths = stride(from: 0, to: points.count, by: 32).map { start in
            let longitudes = order[start..<start + 32].map { points[Int($0)].longitude }
            return longitudes.max()! - longitudes.min()!
        }
        #expect(widths.reduce(0, +) <= 40)
        #expect(widths.max()! < 1)
    }

    /// The directory lists each bucket meeting a box once, as a scan of every bucket does.
    @Test(arguments: [1, 7, 60])
    func directoryFindsTheBucketsMeetingABoxOnce(_ rows: Int) {
        var rng = IndexTestSupport.SeededGenerator(seed: UInt64(rows))
        func box(_ size: Double) -> GeoBox {
            let lat = Double.random(in: -90...90, using: &rng)
            let lon = Double.random(in: -180...180, using: &rng)
            return GeoBox(
                minLongitude: max(-180, lon - size), minLatitude: max(-90, lat - size / 2),
                maxLongitude: min(180, lon + size), maxLatitude: min(90, lat + size / 2))
        }
        var boxes = (0..<300).map { _ in box(Double.random(in: 0...20, using: &rng)) }
        boxes.append(GeoBox(minLongitude: 180, minLatitude: 90, maxLongitude: 180, maxLatitude: 90))
        boxes.append(GeoBox(minLongitude: -180, minLatitude: -90, maxLongitude: -180, maxLatitude: -90))
        let slots = boxes.map { Coordinate(latitude: $0.minLatitude, longitude: $0.minLongitude) }
        let points = slots.flatMap { c -> [Double] in
            let p = EarthCenteredPoint(c)
            return [p.x, p.y, p.z]
        }
        let directory = BucketDirectory.from(boxes: boxes, points: points, slotCoordinates: slots, rows: rows)
        for _ in 0..<500 {
            let query = box(Double.random(in: 0...30, using: &rng))
            let expected = boxes.indices.filter { b in
                boxes[b].minLongitude <= query.maxLongitude && query.minLongitude <= boxes[b].maxLongitude
                    && boxes[b].minLatitude <= query.maxLatitude && query.minLatitude <= boxes[b].maxLatitude
            }
            let found = boxes.withUnsafeBufferPointer { all in
                withUnsafeTemporaryAllocation(of: Int32.self, capacity: max(1, directory.entryCount(of: query))) { out in
                    let n = directory.appendBuckets(meeting: query, boxes: all, into: out, count: 0)
                    return out[0..<n].map { Int($0) }
                }
            }
            #expect(found.sorted() == expected)
        }
        // Every cell has a witness, and it is a real slot.
        for k in 0..<(directory.grid.rows * directory.grid.columns) {
            #expect((0..<slots.count).contains(directory.witness(ofCell: k)))
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
