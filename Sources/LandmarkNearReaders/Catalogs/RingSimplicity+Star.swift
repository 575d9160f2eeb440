@_spi(Inlining) import LandmarkNearCore

extension RingSimplicity {
    /// Whether the closed ring `ring` is certainly simple because it winds once around the mean
    /// c of its vertices, turning one way all along: a star-shaped ring (every convex one, a
    /// drawn circle or box, most drawn geofences), proved in one pass, where the sweep of runs
    /// costs a sort and several looks an edge. False is no verdict: the sweep decides then.
    ///
    /// The proof. Every edge pᵢ → pᵢ₊₁ turns strictly the same way around c (the filtered
    /// orientation of pᵢ, pᵢ₊₁, c, as in the sweep; an uncertain one is no proof): no edge's
    /// line passes through c, and along each edge the direction from c turns strictly one way,
    /// by less than a half turn. Along the whole ring it then turns by k full turns, k ≥ 1, in
    /// one direction, and passes the direction +x (the ray from c toward growing x) k times.
    /// Counted by the half-open rule on y, exact in doubles: turning counterclockwise, an edge
    /// passes it when pᵢ is below c (y < c.y) and pᵢ₊₁ is not (a counterclockwise edge from
    /// below to the line or above, turning by less than a half turn, does so on c's right, where
    /// +x is); clockwise, mirrored (pᵢ above, pᵢ₊₁ not). When exactly one edge passes, k = 1: the
    /// direction from c grows strictly and covers the full turn once, so two different points of
    /// the ring lie in different directions from c, and are different points. The ring is
    /// simple; its vertices are not all on one line. With a closed ring of at least four
    /// positions, that is all GEOS's validity asks of a polygon's shell alone.
    static func isCertainlyStarShaped(_ ring: UnsafeBufferPointer<Coordinate>) -> Bool {
        let n = ring.count - 1
        guard n >= 3, ring[0] == ring[n] else { return false }
        var (x, y) = (0.0, 0.0)
        for i in 0..<n {
            x += ring[i].longitude
            y += ring[i].latitude
        }
        let center = Coordinate(latitude: y / Double(n), longitude: x / Double(n))
        let turn = orientation(ring[0], ring[1], center)
        guard turn != 0 else { return false }
        var passes = 0
        for i in 0..<n {
            let (a, b) = (ring[i], ring[i + 1])
            guard orientation(a, b, center) == turn else { return false }
            let passesRay =
                turn > 0
                ? a.latitude < center.latitude && b.latitude >= center.latitude
                : a.latitude > center.latitude && b.latitude <= center.latitude
            if passesRay { passes += 1 }
        }
        return passes == 1
    }
}
