import Foundation
import Testing

@_spi(Inlining) @testable import LandmarkNearCore
@_spi(Inlining) @testable import LandmarkNearGeodesy
@testable import LandmarkNearIndex

@Suite(.suiteTimeLimit) struct LandmarkIndexEdgeTests {
    static let embedded = LandmarkCatalog.embedded.landmarks.map(\.coordinate)

    @Test func emptyCatalogAnswersNothing() {
        let index = LandmarkIndex(coordinates: [])
        #expect(index.count == 0)
        #expect(index.within(1e7, of: Coordinate(latitude: 0, longitude: 0)).isEmpty)
        #expect(index.nearest(to: Coordinate(latitude: 0, longitude: 0), limit: 3).isEmpty)
    }

    @Test func limitLargerThanCatalogGivesEveryLandmarkInOrder() {
        let index = LandmarkIndex(catalog: .embedded)
        let point = Coordinate(latitude: 34, longitude: -116)
        let all = index.nearest(to: point, limit: 50)
        #expect(all.count == 12)
        #expect(Set(all.map(\.index)) == Set(0..<12))
        #expect(IndexTestSupport.agree(all, BruteForceReference(Self.embedded).nearest(to: point, limit: 12)))
        #expect(zip(all, all.dropFirst()).allSatisfy { LandmarkNeighbor.precedes($0, $1) })
    }

    @Test func nonPositiveLimitOrRadiusOrInvalidPointAnswerNothing() {
        let index = LandmarkIndex(catalog: .embedded)
        let turtleRock = Self.embedded[0]
        #expect(index.nearest(to: turtleRock, limit: 0).isEmpty)
        #expect(index.within(-1, of: turtleRock).isEmpty)
        #expect(index.within(.nan, of: turtleRock).isEmpty)
        #expect(index.nearest(to: Coordinate(latitude: .nan, longitude: 0), limit: 1).isEmpty)
        #expect(index.within(100, of: Coordinate(latitude: 91, longitude: 0)).isEmpty)
    }

    @Test(arguments: 0..<12)
    func pointExactlyOnALandmarkIsAtDistanceZero(_ landmark: Int) {
        let index = LandmarkIndex(catalog: .embedded)
        let point = Self.embedded[landmark]
        #expect(index.nearest(to: point, limit: 1) == [LandmarkNeighbor(index: landmark, distance: 0)])
        #expect(index.within(0, of: point) == [LandmarkNeighbor(index: landmark, distance: 0)])
    }

    /// Points placed R − 0.5 m and R + 0.5 m from a landmark (Geodesic.destination), in 12
    /// directions, for landmarks of the tutorial, at the poles and on ±180°.
    @Test(arguments: [8046.72, 100.0, 250_000.0])
    func boundaryIsTheGeodesicOne(_ radius: Double) {
        let landmarks =
            Self.embedded + [
                Coordinate(latitude: 90, longitude: 0), Coordinate(latitude: -90, longitude: 45),
                Coordinate(latitude: 89.95, longitude: 179.9), Coordinate(latitude: -12.5, longitude: 180),
                Coordinate(latitude: 65.0, longitude: -180), Coordinate(latitude: 0, longitude: 179.99999),
            ]
        let index = LandmarkIndex(coordinates: landmarks)
        let reference = BruteForceReference(landmarks)
        for (i, landmark) in landmarks.enumerated() {
            for step in 0..<12 {
                let azimuth = Double(step) * 30 - 180
                let inside = Geodesic.wgs84.destination(from: landmark, azimuth: azimuth, distance: radius - 0.5)
                let outside = Geodesic.wgs84.destination(from: landmark, azimuth: azimuth, distance: radius + 0.5)
                let found = index.within(radius, of: inside)
                #expect(found.contains { $0.index == i }, "landmark \(i) from \(inside) at R-0.5")
                #expect(IndexTestSupport.agree(found, reference.within(radius, of: inside)))
                let notFound = index.within(radius, of: outside)
                #expect(!notFound.contains { $0.index == i }, "landmark \(i) from \(outside) at R+0.5")
                #expect(IndexTestSupport.agree(notFound, reference.within(radius, of: outside)))
                #expect(IndexTestSupport.agree(index.nearest(to: inside, limit: 2), reference.nearest(to: inside, limit: 2)))
            }
        }
    }

    @Test func tiesInDistanceAreOrderedByIndex() {
        let spot = Coordinate(latitude: -16.5, longitude: 179.99)
        let landmarks = [Coordinate(latitude: 0, longitude: 0), spot, spot, Coordinate(latitude: 1, longitude: 1), spot]
        let index = LandmarkIndex(coordinates: landmarks)
        let point = Coordinate(latitude: -16.45, longitude: -179.98)
        #expect(index.nearest(to: point, limit: 3).map(\.index) == [1, 2, 4])
        #expect(index.within(20_000, of: point).map(\.index) == [1, 2, 4])
    }

    @Test func acrossTheAntimeridianTheNearestIsOnTheOtherSide() {
        let landmarks = [Coordinate(latitude: 60, longitude: 179.95), Coordinate(latitude: 60, longitude: -179.0)]
        let index = LandmarkIndex(coordinates: landmarks)
        let answers = index.nearest(to: Coordinate(latitude: 60, longitude: -179.98), limit: 1)
        #expect(answers.map(\.index) == [0])
        #expect(index.within(8046.72, of: Coordinate(latitude: 60, longitude: -179.98)).map(\.index) == [0])
    }

    @Test func atThePoleEveryLongitudeIsTheSamePlace() {
        let landmarks = [
            Coordinate(latitude: 89.99, longitude: -170), Coordinate(latitude: 90, longitude: 123),
            Coordinate(latitude: 89.9, longitude: 10),
        ]
        let index = LandmarkIndex(coordinates: landmarks)
        let answers = index.within(12_000, of: Coordinate(latitude: 90, longitude: -45))
        #expect(answers.map(\.index) == [1, 0, 2])
        #expect(answers[0].distance == 0)
    }
}

/// Distances closer together than ShortGeodesic's error bound: the index must order them as
/// `geod_inverse` does (it measures such neighbours exactly).
@Suite(.suiteTimeLimit) struct LandmarkIndexNearTieTests {
    @Test(arguments: [1e-9, 1e-8, 5e-8, 2e-7, 1e-6])
    func nearlyEqualDistancesAreOrderedExactly(_ offset: Double) {
        let point = Coordinate(latitude: 47.3, longitude: 8.5)
        var landmarks: [Coordinate] = []
        for step in 0..<12 {
            // Twelve landmarks about 3 km away, their distances `offset` m apart.
            let azimuth = Double(step) * 30 - 180
            landmarks.append(Geodesic.wgs84.destination(from: point, azimuth: azimuth, distance: 3000 + Double(step % 4) * offset))
        }
        let index = LandmarkIndex(coordinates: landmarks)
        let reference = BruteForceReference(landmarks)
        for limit in [1, 2, 5, 12] {
            #expect(IndexTestSupport.agree(index.nearest(to: point, limit: limit), reference.nearest(to: point, limit: limit)))
        }
        #expect(IndexTestSupport.agree(index.within(3000 + offset, of: point), reference.within(3000 + offset, of: point)))
        #expect(IndexTestSupport.agree(index.within(3000, of: point), reference.within(3000, of: point)))
    }
}
