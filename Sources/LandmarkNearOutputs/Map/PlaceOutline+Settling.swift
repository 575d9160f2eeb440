@_spi(Inlining) import LandmarkNearCore
@_spi(Inlining) import LandmarkNearGeodesy

extension PlaceOutline {
    /// Puts the vertices of a buffered ring at the exact distance R from the place (steps 3 and
    /// 4 of `PlaceOutline`): each along the ring's outward normal in the plane, and more where an
    /// edge's midpoint in longitude/latitude is off R.
    ///
    /// Bounds: a vertex is settled when its distance is within R / 10⁶ of R (a micrometre at
    /// 1 m; a micrometre at least, the geodesics being good to nanometres), found within R of
    /// where it started (else it is left out: the buffer is never that
    /// far off); an edge is cut while its midpoint is more than R / 2,000 off R, 12 times at most.
    struct Settler {
        struct Vertex {
            var plane: SIMD2<Double>
            var coordinate: Coordinate
        }

        let place: PlaceDistance
        let plane: AzimuthalEquidistant
        let radius: Double

        /// The point on the line through `start` along the unit `normal` (in the plane) at the
        /// distance R, nil when none is found within R of `start`.
        func settle(_ start: SIMD2<Double>, along normal: SIMD2<Double>) -> Vertex? {
            func g(_ t: Double) -> Double { place.distance(from: plane.unproject(start + t * normal)) - radius }
            let g0 = g(0)
            // The distance grows by about the step outwards: the first guess steps by the gap.
            guard let t = SecantRoot.find(g, from: 0, -g0, known: g0, tolerance: max(radius * 1e-6, 1e-6), limit: radius) else {
                return nil
            }
            let v = start + t * normal
            return Vertex(plane: v, coordinate: plane.unproject(v))
        }

        /// A closed planar ring (its region on the left) settled: closed, on the globe.
        func ring(_ ring: [SIMD2<Double>]) -> [Vertex] {
            let open = Array(ring.dropLast())
            let n = open.count
            guard n >= 3 else { return [] }
            var settled: [(from: SIMD2<Double>, vertex: Vertex)] = []
            for i in 0..<n {
                guard let normal = Settler.rightNormal(open[(i + 1) % n] - open[(i + n - 1) % n]),
                    let vertex = settle(open[i], along: normal)
                else { continue }
                // Where the outline bends inwards, normals converge: a vertex moved farther than
                // its neighbour's spacing lands behind it, and the ring would loop back on itself.
                // A vertex that would run backwards (against the buffer's own direction) is left
                // out; its neighbours are at R, and the cut below fills the gap.
                while let last = settled.last, ((vertex.plane - last.vertex.plane) * (open[i] - last.from)).sum() <= 0 {
                    settled.removeLast()
                }
                settled.append((open[i], vertex))
            }
            while settled.count > 3, let last = settled.last,
                ((settled[0].vertex.plane - last.vertex.plane) * (settled[0].from - last.from)).sum() <= 0
            {
                settled.removeLast()
            }
            guard settled.count >= 3 else { return [] }
            var out: [Vertex] = []
            out.reserveCapacity(settled.count * 2)
            for (i, a) in settled.enumerated() {
                out.append(a.vertex)
                cut(a.vertex, settled[(i + 1) % settled.count].vertex, depth: 0, into: &out)
            }
            out.append(out[0])
            return out
        }

        /// Settles vertices between `a` and `b` (exclusive) while the edge's midpoint in
        /// longitude/latitude is more than R / 2,000 off R.
        func cut(_ a: Vertex, _ b: Vertex, depth: Int, into out: inout [Vertex]) {
            guard depth < 12 else { return }
            let middle = Coordinate(
                latitude: (a.coordinate.latitude + b.coordinate.latitude) / 2,
                longitude: GeodesicCircle.wrapped(
                    a.coordinate.longitude + GeodesicCircle.wrapped(b.coordinate.longitude - a.coordinate.longitude) / 2))
            guard abs(place.distance(from: middle) - radius) > radius / 2_000 else { return }
            let chord = b.plane - a.plane
            let length = (chord * chord).sum().squareRoot()
            guard let normal = Settler.rightNormal(chord), let m = settle(plane.project(middle), along: normal) else { return }
            // It must fall between the two, along the edge, or the edge is left as it is.
            let along = ((m.plane - a.plane) * chord).sum() / max(length, .leastNormalMagnitude)
            guard along > 0, along < length else { return }
            cut(a, m, depth: depth + 1, into: &out)
            out.append(m)
            cut(m, b, depth: depth + 1, into: &out)
        }

        /// The unit vector to the right of `direction`, nil for a zero one.
        static func rightNormal(_ direction: SIMD2<Double>) -> SIMD2<Double>? {
            let length = (direction * direction).sum().squareRoot()
            guard length > 0, length.isFinite else { return nil }
            return SIMD2(direction.y, -direction.x) / length
        }
    }
}
