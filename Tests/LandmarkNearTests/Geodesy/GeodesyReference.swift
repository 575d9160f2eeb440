import Foundation

@_spi(Inlining) @testable import LandmarkNearCore
@_spi(Inlining) @testable import LandmarkNearGeodesy

/// Brute-force references for the geodesic segment and ring tests, built from nothing but
/// `geod_inverse`, `geod_direct` and `geod_polygonarea`, and slow.
enum GeodesyReference {
    /// The least distance from `p` to the geodesics from each `edges[i].0` to `edges[i].1`, and
    /// where it is (edge index, metres along). Branch and bound over pieces of the edges: f is
    /// 1-Lipschitz, so no point of a piece of width w probed in its middle is nearer than
    /// f(middle) − w/2; pieces that could hold a nearer point are halved down to 1 m (so near
    /// the minimum the edges are sampled every metre), then a golden-section search on the 3 m
    /// around the nearest sample finds the minimum.
    static func nearest(from p: Coordinate, edges: [(Coordinate, Coordinate)]) -> (distance: Double, edge: Int, along: Double) {
        let g = Geodesic.wgs84
        struct Piece {
            var edge: Int
            var lo: Double
            var hi: Double
            var middle: Double
        }
        let lines = edges.map { g.inverse(from: $0.0, to: $0.1) }
        func f(_ edge: Int, _ s: Double) -> Double {
            if s <= 0 { return g.distance(from: edges[edge].0, to: p) }
            if s >= lines[edge].distance { return g.distance(from: edges[edge].1, to: p) }
            return g.distance(from: g.destination(from: edges[edge].0, azimuth: lines[edge].azimuth, distance: s), to: p)
        }
        var best = (distance: Double.infinity, edge: 0, along: 0.0)
        func consider(_ d: Double, _ edge: Int, _ s: Double) {
            if d < best.distance { best = (d, edge, s) }
        }
        var stack: [Piece] = []
        for (i, line) in lines.enumerated() {
            consider(f(i, 0), i, 0)
            consider(f(i, line.distance), i, line.distance)
            stack.append(Piece(edge: i, lo: 0, hi: line.distance, middle: f(i, line.distance / 2)))
        }
        stack.sort { $0.middle - ($0.hi - $0.lo) / 2 > $1.middle - ($1.hi - $1.lo) / 2 }
        while let piece = stack.popLast() {
            let mid = 0.5 * (piece.lo + piece.hi)
            consider(piece.middle, piece.edge, mid)
            guard piece.middle - (piece.hi - piece.lo) / 2 < best.distance, piece.hi - piece.lo > 1 else { continue }
            let left = Piece(edge: piece.edge, lo: piece.lo, hi: mid, middle: f(piece.edge, 0.5 * (piece.lo + mid)))
            let right = Piece(edge: piece.edge, lo: mid, hi: piece.hi, middle: f(piece.edge, 0.5 * (mid + piece.hi)))
            if left.middle < right.middle {
                stack.append(right)
                stack.append(left)
            } else {
                stack.append(left)
                stack.append(right)
            }
        }
        // Golden-section search around the nearest sample.
        let length = lines[best.edge].distance
        var a = max(0, best.along - 1.5)
        var b = min(length, best.along + 1.5)
        let ratio = (5.0.squareRoot() - 1) / 2
        var c = b - ratio * (b - a)
        var d = a + ratio * (b - a)
        var fc = f(best.edge, c)
        var fd = f(best.edge, d)
        while b - a > 1e-7 {
            if fc < fd {
                b = d
                d = c
                fd = fc
                c = b - ratio * (b - a)
                fc = f(best.edge, c)
            } else {
                a = c
                c = d
                fc = fd
                d = a + ratio * (b - a)
                fd = f(best.edge, d)
            }
        }
        consider(fc, best.edge, c)
        consider(fd, best.edge, d)
        return best
    }

    /// The unit vector of a point's direction from the Earth's centre.
    static func direction(_ c: Coordinate) -> SIMD3<Double> {
        let e = EarthCenteredPoint(c)
        let v = SIMD3(e.x, e.y, e.z)
        return v / (v * v).sum().squareRoot()
    }

    static func cross(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> SIMD3<Double> {
        SIMD3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
    }

    static func dot(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Double { (a * b).sum() }

    /// Whether the arcs AB and CD (directions, less than half a circle each) cross (S2's test).
    static func arcsCross(_ a: SIMD3<Double>, _ b: SIMD3<Double>, _ c: SIMD3<Double>, _ d: SIMD3<Double>) -> Bool {
        func sign(_ x: SIMD3<Double>, _ y: SIMD3<Double>, _ z: SIMD3<Double>) -> Int {
            let v = dot(cross(x, y), z)
            return v > 0 ? 1 : v < 0 ? -1 : 0
        }
        let acb = -sign(a, b, c)
        let bda = sign(a, b, d)
        guard acb != 0, acb == bda else { return false }
        let cbd = -sign(c, d, b)
        guard cbd == acb else { return false }
        return sign(c, d, a) == acb
    }

    /// A ring sampled along its geodesic edges every `spacing` metres or less, as directions.
    static func densify(_ ring: [Coordinate], spacing: Double = 5_000) -> [SIMD3<Double>] {
        let g = Geodesic.wgs84
        var samples: [SIMD3<Double>] = []
        for i in ring.indices {
            let (a, b) = (ring[i], ring[(i + 1) % ring.count])
            let (length, azimuth) = g.inverse(from: a, to: b)
            let n = max(1, Int((length / spacing).rounded(.up)))
            samples.append(direction(a))
            for k in 1..<n {
                samples.append(direction(g.destination(from: a, azimuth: azimuth, distance: length * Double(k) / Double(n))))
            }
        }
        return samples
    }

    /// A ring for containment by brute force: whether P is on the ring's left is the parity of
    /// crossings of the arc from P to a point Q known to be on the left (20 m left of the middle
    /// of an edge: the one nearest P) with the ring sampled every 5 km; matched with the side of
    /// the smaller region (the sign of `geod_polygonarea`).
    struct Ring {
        let samples: [SIMD3<Double>]
        let lefts: [SIMD3<Double>]
        let smallerOnLeft: Bool

        init(_ ring: [Coordinate]) {
            let g = Geodesic.wgs84
            samples = GeodesyReference.densify(ring)
            lefts = ring.indices.compactMap { i in
                let (a, b) = (ring[i], ring[(i + 1) % ring.count])
                let (length, azimuth) = g.inverse(from: a, to: b)
                guard length > 100 else { return nil }
                let middle = g.destination(from: a, azimuth: azimuth, distance: length / 2)
                let heading = g.inverse(from: middle, to: b).azimuth
                return GeodesyReference.direction(g.destination(from: middle, azimuth: heading - 90, distance: 20))
            }
            smallerOnLeft = g.signedArea(of: ring) > 0
        }

        func contains(_ p: Coordinate) -> Bool {
            let pv = GeodesyReference.direction(p)
            let q = lefts.max { dot($0, pv) < dot($1, pv) }!
            var crossings = 0
            for i in samples.indices where arcsCross(pv, q, samples[i], samples[(i + 1) % samples.count]) {
                crossings += 1
            }
            return (crossings % 2 == 0) == smallerOnLeft
        }

        /// The least chord (metres, on the unit sphere scaled by the mean radius) from P to a
        /// sample: points much farther than the sample spacing from every sample are far from
        /// the ring.
        func sampleDistance(_ p: Coordinate) -> Double {
            let pv = GeodesyReference.direction(p)
            return samples.map { (($0 - pv) * ($0 - pv)).sum().squareRoot() }.min()! * 6_371_000
        }
    }
}
