import Foundation
import Testing

@_spi(Inlining) @testable import LandmarkNearCore
@_spi(Inlining) @testable import LandmarkNearGeodesy

@Suite(.suiteTimeLimit) struct GeodesicTests {
    struct Reference: CustomTestStringConvertible, Sendable {
        var name: String
        var from: Coordinate
        var to: Coordinate
        var distance: Double
        var testDescription: String { name }
    }

    /// Reference distances from GeographicLib (Python package `geographiclib` 2.0 from PyPI,
    /// `Geodesic.WGS84.Inverse(lat1, lon1, lat2, lon2)["s12"]`), printed to the micrometre.
    static let references: [Reference] = [
        ("JFK to LHR", 40.64, -73.78, 51.47, -0.46, 5554747.739656),
        ("Turtle Rock to Silver Salmon Creek", 34.011286, -116.166868, 59.980167, -152.665167, 3912535.537381),
        ("across the antimeridian", -16.5, 179.9, -16.4, -179.8, 33894.871689),
        ("pole to pole", 90, 0, -90, 0, 20003931.458625),
        ("equatorial antipodes", 0, 0, 0, 180, 20003931.458625),
        ("nearly antipodal", 0.5, 0, -0.5, 179.7, 19995624.889961),
        ("north pole to Alert", 90, 0, 82.5, -62.35, 837656.647485),
        ("south pole to McMurdo", -90, 0, -77.85, 166.67, 1356878.097436),
        ("short hop", 48.85, 2.35, 48.8501, 2.3502, 18.415220),
        ("same point", 34.011286, -116.166868, 34.011286, -116.166868, 0),
        ("one degree of longitude on the equator", 0, 0, 0, 1, 111319.490793),
        ("one degree of latitude at the pole", 89, 45, 90, 45, 111693.864914),
    ].map {
        Reference(
            name: $0.0, from: Coordinate(latitude: $0.1, longitude: $0.2),
            to: Coordinate(latitude: $0.3, longitude: $0.4), distance: $0.5)
    }

    @Test(arguments: references)
    func distanceMatchesGeographicLibToTheMillimetre(_ reference: Reference) {
        let metres = Geodesic.wgs84.distance(from: reference.from, to: reference.to)
        #expect(abs(metres - reference.distance) < 0.001, "\(metres) m")
        let back = Geodesic.wgs84.distance(from: reference.to, to: reference.from)
        #expect(abs(back - reference.distance) < 0.001, "reverse: \(back) m")
    }

    @Test func directFromJFKMatchesGeographicLib() {
        // GeographicLib: Geodesic.WGS84.Direct(40.64, -73.78, 51.0, 8046.72)
        let end = Geodesic.wgs84.destination(from: Coordinate(latitude: 40.64, longitude: -73.78), azimuth: 51, distance: 8046.72)
        #expect(abs(end.latitude - 40.68557814985724) < 1e-11)
        #expect(abs(end.longitude - -73.70602389771202) < 1e-11)
    }

    @Test func inverseGivesTheAzimuthTowardsLondon() {
        let (metres, azimuth) = Geodesic.wgs84.inverse(
            from: Coordinate(latitude: 40.64, longitude: -73.78),
            to: Coordinate(latitude: 51.47, longitude: -0.46))
        #expect(abs(metres - 5554747.739656) < 0.001)
        #expect(abs(azimuth - 51.381751570) < 1e-8)  // GeographicLib azi1
    }

    @Test func destinationThenDistanceRoundTrips() {
        var rng = IndexTestSupport.SeededGenerator(seed: 11)
        for _ in 0..<500 {
            let start = IndexTestSupport.queryPoint(&rng, near: [])
            let distance = Double.random(in: 0...19_000_000, using: &rng)
            let end = Geodesic.wgs84.destination(from: start, azimuth: Double.random(in: -180...180, using: &rng), distance: distance)
            #expect(end.isValid)
            // Shortest paths up to 19 000 km can be shorter than the path walked only near antipodes.
            #expect(Geodesic.wgs84.distance(from: start, to: end) <= distance + 1e-6)
        }
    }
}
