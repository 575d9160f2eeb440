import Foundation
import Testing

@testable import LandmarkNear

@Suite(.suiteTimeLimit) struct CapCoverTests {
    /// Points at the radius in every direction (and just inside) fall in the cover.
    @Test func coverHoldsTheWholeCap() {
        var rng = IndexTestSupport.SeededGenerator(seed: 3)
        for _ in 0..<3000 {
            let center = IndexTestSupport.queryPoint(&rng, near: [])
            let radius = [0, 8046.72, Double.random(in: 0...2_000_000, using: &rng)][Int.random(in: 0..<3, using: &rng)]
            let cover = CapCover(center: center, radius: radius)
            #expect(cover.boxes.contains { $0.contains(center) })
            for step in 0..<36 {
                let edge = Geodesic.wgs84.destination(from: center, azimuth: Double(step) * 10 - 180, distance: radius)
                #expect(cover.boxes.contains { $0.contains(edge) }, "\(center) r=\(radius) edge \(edge)")
            }
        }
    }

    @Test func splitsAtTheAntimeridian() {
        let cover = CapCover(center: Coordinate(latitude: 10, longitude: 179.99), radius: 8046.72)
        let second = try! #require(cover.second)
        #expect(cover.first.maxLongitude == 180 && cover.first.minLongitude > 179.9)
        #expect(second.minLongitude == -180 && second.maxLongitude < -179.9)
        #expect(cover.boxes.contains { $0.contains(Coordinate(latitude: 10, longitude: -180)) })
    }

    @Test func coversEveryLongitudeAroundAPole() {
        let cover = CapCover(center: Coordinate(latitude: 89.99, longitude: 12), radius: 8046.72)
        #expect(cover.second == nil)
        #expect(cover.first.minLongitude == -180 && cover.first.maxLongitude == 180 && cover.first.maxLatitude == 90)
    }

    @Test func growsWithLatitude() {
        let equator = CapCover(center: Coordinate(latitude: 0, longitude: 0), radius: 8046.72).first
        let north = CapCover(center: Coordinate(latitude: 70, longitude: 0), radius: 8046.72).first
        #expect(north.maxLongitude - north.minLongitude > 2.5 * (equator.maxLongitude - equator.minLongitude))
        #expect(abs((north.maxLatitude - north.minLatitude) - (equator.maxLatitude - equator.minLatitude)) < 1e-9)
    }

    @Test func infiniteRadiusIsTheWorld() {
        #expect(CapCover(center: Coordinate(latitude: 1, longitude: 2), radius: .infinity).boxes == [GeoBox.world])
    }
}
