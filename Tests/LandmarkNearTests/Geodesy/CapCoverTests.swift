import Foundation
import Testing

@_spi(Inlining) @testable import LandmarkNearCore
@_spi(Inlining) @testable import LandmarkNearGeodesy

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

    /// The cover from a query's latitude sine and cosine (angle sum and series, no `cos` or
    /// `asin` for small caps) is the one of the direct trigonometry to 1e-12 of its width, far
    /// inside the 1e-9 by which both grow it: near the equator, at 89.9°, across ±180°.
    @Test(arguments: [0.0, 0.5, 8046.72, 50_000, 300_000, 320_000, 2_000_000])
    func latitudeTrigonometryGivesTheSameCover(radius: Double) {
        var rng = IndexTestSupport.SeededGenerator(seed: 11)
        let degrees = 180 / Double.pi
        for n in 0..<5000 {
            let latitude =
                n % 5 == 0
                ? Double.random(in: 89.5...89.99, using: &rng) * (n % 2 == 0 ? 1 : -1)
                : Double.random(in: -89...89, using: &rng)
            let center = Coordinate(latitude: latitude, longitude: Double.random(in: -180...180, using: &rng))
            let cover = CapCover(center: center, radius: radius)
            // The direct formula (CapCover's proof): asin(r / (a cos φmax)).
            let grown = radius * (1 + 1e-9) + 1e-6
            let dLat = grown / EllipsoidConstants.smallestRadiusOfCurvature * degrees * (1 + 1e-9) + 1e-9
            #expect(abs(cover.first.maxLatitude - min(90, latitude + dLat)) <= 1e-12)
            guard abs(latitude) + dLat < 90 else { continue }
            let axis = EllipsoidConstants.equatorialRadius * cos((abs(latitude) + dLat) / degrees) * (1 - 1e-12)
            guard grown < axis, asin(grown / axis) * degrees < 179 else { continue }
            let dLon = asin(grown / axis) * degrees * (1 + 1e-9) + 1e-9
            let width = cover.boxes.reduce(0) { $0 + $1.maxLongitude - $1.minLongitude }
            #expect(abs(width - 2 * dLon) <= 1e-12 * dLon + 1e-12, "\(center) r=\(radius): \(width) vs \(2 * dLon)")
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
