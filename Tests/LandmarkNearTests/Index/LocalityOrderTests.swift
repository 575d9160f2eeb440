import Testing

@_spi(Inlining) @testable import LandmarkNearCore
@testable import LandmarkNearIndex

/// `LocalityOrder` and the index's batch search that asks in its order.
@Suite(.suiteTimeLimit) struct LocalityOrderTests {
    @Test func theDocExampleGoesSydneyLondonParis() {
        let paris = Coordinate(latitude: 48.85, longitude: 2.35)
        let sydney = Coordinate(latitude: -33.87, longitude: 151.21)
        let london = Coordinate(latitude: 51.5, longitude: -0.13)
        #expect(LocalityOrder.positions(of: [paris, sydney, london]) == [1, 2, 0])
    }

    @Test(arguments: [0, 1, 2, 255, 256, 257, 4096, 10_000])
    func positionsAreAPermutationAlongTheCurve(_ count: Int) {
        var rng = IndexTestSupport.SeededGenerator(seed: UInt64(count) + 1)
        let points = (0..<count).map { _ in IndexTestSupport.anywhere(&rng) }
        let order = LocalityOrder.positions(of: points)
        #expect(order.sorted() == Array(0..<count))
        // Along the curve: each point's cell key is at least the one before it, and equal
        // keys keep their positions' order.
        func key(_ c: Coordinate) -> Int {
            let row = min(255, max(0, Int((c.latitude + 90) / 180 * 256)))
            let column = min(255, max(0, Int((c.longitude + 180) / 360 * 256)))
            var key = 0
            for bit in 0..<8 { key |= (column >> bit & 1) << (2 * bit) | (row >> bit & 1) << (2 * bit + 1) }
            return key
        }
        for (a, b) in zip(order, order.dropFirst()) {
            #expect(key(points[a]) < key(points[b]) || (key(points[a]) == key(points[b]) && a < b))
        }
    }

    /// The edges of the world and values no parser lets through still get a place, without a trap.
    @Test func edgesAndNonNumbersGetAPlace() {
        let points = [
            Coordinate(latitude: 90, longitude: 180), Coordinate(latitude: -90, longitude: -180),
            Coordinate(latitude: .nan, longitude: .nan), Coordinate(latitude: 1e300, longitude: -1e300),
            Coordinate(latitude: 0, longitude: 0),
        ]
        #expect(LocalityOrder.positions(of: points).sorted() == Array(0..<points.count))
    }

    /// The batch search hands on each point's answers once, the same as one search each, for
    /// points anywhere (poles, ±180°, invalid ones) and with a cutoff.
    @Test(arguments: [(1, Double.infinity), (3, Double.infinity), (2, 200_000.0)])
    func forEachNearestAnswersAsOneSearchEach(_ limit: Int, _ cutoff: Double) throws {
        let landmarks = try IndexTestSupport.citySample()
        let index = LandmarkIndex(coordinates: landmarks)
        var rng = IndexTestSupport.SeededGenerator(seed: 41)
        var points: [Coordinate] = []
        for i in 0..<3_000 {
            switch i % 4 {
            case 0: points.append(IndexTestSupport.anywhere(&rng))
            case 1: points.append(IndexTestSupport.nearPole(&rng))
            case 2: points.append(IndexTestSupport.nearAntimeridian(&rng))
            default: points.append(IndexTestSupport.queryPoint(&rng, near: landmarks))
            }
        }
        points.append(Coordinate(latitude: 91, longitude: 0))  // invalid: no answers
        var answered = [[LandmarkNeighbor]?](repeating: nil, count: points.count)
        index.forEachNearest(of: points, limit: limit, within: cutoff) { position, neighbors in
            #expect(answered[position] == nil, "position \(position) answered twice")
            answered[position] = neighbors
        }
        for (position, point) in points.enumerated() {
            #expect(answered[position] == index.nearest(to: point, limit: limit, within: cutoff), "position \(position)")
        }
        #expect(answered.last == [])
    }
}
