import Foundation
import Testing

@_spi(Inlining) @testable import LandmarkNearCore
@_spi(Inlining) @testable import LandmarkNearGeodesy
@testable import LandmarkNearIndex
@testable import LandmarkNearReaders

/// Shared pieces of the index tests: a seeded generator, query-point makers and an independent
/// brute-force reference.
enum IndexTestSupport {
    /// The project's seeded, repeatable generator.
    typealias SeededGenerator = SplitMix64

    /// A point uniform on the sphere.
    static func anywhere(_ rng: inout SeededGenerator) -> Coordinate {
        Coordinate(
            latitude: asin(Double.random(in: -1...1, using: &rng)) * 180 / .pi,
            longitude: Double.random(in: -180...180, using: &rng))
    }

    /// A point within 1° of a pole (sometimes exactly on it).
    static func nearPole(_ rng: inout SeededGenerator) -> Coordinate {
        let sign: Double = Bool.random(using: &rng) ? 1 : -1
        let offset = Int.random(in: 0..<10, using: &rng) == 0 ? 0 : Double.random(in: 0...1, using: &rng)
        return Coordinate(latitude: sign * (90 - offset), longitude: Double.random(in: -180...180, using: &rng))
    }

    /// A point within 1° of the antimeridian (sometimes exactly on ±180°).
    static func nearAntimeridian(_ rng: inout SeededGenerator) -> Coordinate {
        let sign: Double = Bool.random(using: &rng) ? 1 : -1
        let offset = Int.random(in: 0..<10, using: &rng) == 0 ? 0 : Double.random(in: 0...1, using: &rng)
        return Coordinate(
            latitude: asin(Double.random(in: -1...1, using: &rng)) * 180 / .pi,
            longitude: sign * (180 - offset))
    }

    /// A query point: a quarter anywhere, a quarter near the poles, a quarter near ±180°, a
    /// quarter on or near (up to 30 km from) one of `landmarks`.
    static func queryPoint(_ rng: inout SeededGenerator, near landmarks: [Coordinate]) -> Coordinate {
        switch Int.random(in: 0..<4, using: &rng) {
        case 0: return anywhere(&rng)
        case 1: return nearPole(&rng)
        case 2: return nearAntimeridian(&rng)
        default:
            guard let landmark = landmarks.randomElement(using: &rng) else { return anywhere(&rng) }
            if Int.random(in: 0..<8, using: &rng) == 0 { return landmark }
            return Geodesic.wgs84.destination(
                from: landmark, azimuth: Double.random(in: -180...180, using: &rng),
                distance: Double.random(in: 0...30_000, using: &rng))
        }
    }

    /// Landmarks crowded where indexes go wrong: within 1° of the poles (some exactly on them,
    /// at several longitudes), within 1° of ±180° (some exactly on it), some sharing one
    /// coordinate (ties), and the rest anywhere.
    static func hardLandmarks(count: Int, seed: UInt64) -> [Coordinate] {
        var rng = SeededGenerator(seed: seed)
        var coordinates: [Coordinate] = []
        while coordinates.count < count {
            switch Int.random(in: 0..<4, using: &rng) {
            case 0: coordinates.append(nearPole(&rng))
            case 1: coordinates.append(nearAntimeridian(&rng))
            case 2:
                let c = anywhere(&rng)
                coordinates.append(c)
                coordinates.append(c)
            default: coordinates.append(anywhere(&rng))
            }
        }
        return coordinates
    }

    /// Whether the index's answers are the reference's: the same landmarks in the same order,
    /// each distance within `LandmarkIndex.tolerance(ofDistance:)` of the distance it reports
    /// from `geod_inverse`'s (3 µm to 400 km, 0.1 mm to 1,000 km, 0.2 mm to 2,000 km, 1 mm beyond).
    static func agree(_ actual: [LandmarkNeighbor], _ expected: [LandmarkNeighbor]) -> Bool {
        actual.map(\.index) == expected.map(\.index)
            && zip(actual, expected).allSatisfy {
                abs($0.distance - $1.distance) <= LandmarkIndex.tolerance(ofDistance: $0.distance)
            }
    }

    /// The 20,652 places of Fixtures/cities-sample.csv (GeoNames, CC-BY 4.0).
    /// A missing or unreadable fixture fails the test that asks, rather than giving nothing.
    static func citySample() throws -> [Coordinate] {
        let url = try #require(Bundle.module.url(forResource: "cities-sample", withExtension: "csv", subdirectory: "Fixtures"))
        let coordinates = try CatalogLoader.load(path: url.path).landmarks.map(\.coordinate)
        try #require(coordinates.count == 20_652)
        return coordinates
    }
}

/// The answers `LandmarkIndex` must give, by a scan of every landmark. A prefilter that owes
/// nothing to the index keeps it fast: on the unit sphere with geodetic latitude and longitude,
/// the ellipsoid's metric lies between (b²/a)² and (a²/b)² times the sphere's, so the geodesic
/// distance s and the spherical angle σ obey (b²/a) σ <= s <= (a²/b) σ.
struct BruteForceReference {
    let coordinates: [Coordinate]
    private let unit: [Double]
    static let a = 6_378_137.0
    static let b = a * (1 - 1 / 298.257223563)
    static let lowFactor = b * b / a
    static let highFactor = a * a / b

    init(_ coordinates: [Coordinate]) {
        self.coordinates = coordinates
        var unit: [Double] = []
        for c in coordinates {
            let phi = c.latitude * .pi / 180
            let lambda = c.longitude * .pi / 180
            unit += [cos(phi) * cos(lambda), cos(phi) * sin(lambda), sin(phi)]
        }
        self.unit = unit
    }

    /// Cosines of the spherical angles from `point` to every landmark.
    private func cosines(from point: Coordinate) -> [Double] {
        let phi = point.latitude * .pi / 180
        let lambda = point.longitude * .pi / 180
        let qx = cos(phi) * cos(lambda)
        let qy = cos(phi) * sin(lambda)
        let qz = sin(phi)
        var result = [Double](repeating: 0, count: coordinates.count)
        unit.withUnsafeBufferPointer { u in
            result.withUnsafeMutableBufferPointer { r in
                for i in 0..<r.count {
                    r[i] = u[3 * i] * qx + u[3 * i + 1] * qy + u[3 * i + 2] * qz
                }
            }
        }
        return result
    }

    /// The smallest cosine a landmark within spherical angle `sigma` can show, allowing for
    /// rounding (acos near 1 loses about 2e-8 rad, taken as 1e-7).
    private static func cosineFloor(angle sigma: Double) -> Double {
        let widened = sigma + 1e-7
        return widened >= .pi ? -2 : cos(widened)
    }

    private func exact(_ i: Int, _ point: Coordinate) -> LandmarkNeighbor {
        LandmarkNeighbor(index: i, distance: Geodesic.wgs84.distance(from: point, to: coordinates[i]))
    }

    func within(_ radius: Double, of point: Coordinate) -> [LandmarkNeighbor] {
        let cosine = cosines(from: point)
        let floor = BruteForceReference.cosineFloor(angle: (radius + 1) / BruteForceReference.lowFactor)
        var found: [LandmarkNeighbor] = []
        for i in cosine.indices where cosine[i] >= floor {
            let neighbor = exact(i, point)
            if neighbor.distance <= radius { found.append(neighbor) }
        }
        return found.sorted(by: LandmarkNeighbor.precedes)
    }

    func nearest(to point: Coordinate, limit: Int) -> [LandmarkNeighbor] {
        guard limit > 0, !coordinates.isEmpty else { return [] }
        let cosine = cosines(from: point)
        // The `limit` largest cosines (smallest angles), largest first.
        var best: [Double] = []
        for c in cosine where best.count < limit || c > best[best.count - 1] {
            let at = best.firstIndex(where: { $0 < c }) ?? best.count
            best.insert(c, at: at)
            if best.count > limit { best.removeLast() }
        }
        let kthAngle = acos(min(1, max(-1, best[best.count - 1]))) + 1e-7
        let threshold = BruteForceReference.highFactor * kthAngle + 1
        let floor = BruteForceReference.cosineFloor(angle: (threshold + 1) / BruteForceReference.lowFactor)
        var candidates: [LandmarkNeighbor] = []
        for i in cosine.indices where cosine[i] >= floor {
            candidates.append(exact(i, point))
        }
        return Array(candidates.sorted(by: LandmarkNeighbor.precedes).prefix(limit))
    }
}
