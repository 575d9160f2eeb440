@_spi(Inlining) import LandmarkNearCore

/// A proof, where one is easy, that a polygon's only ring is simple in the longitude/latitude
/// plane — then GEOS's validity check (`GEOSisValidDetail_r`) would accept the polygon, and is
/// not asked. Anything this cannot prove goes to GEOS, which decides and gives the reason.
///
/// Why by hand: GEOS's check was more than half of the start-up of `watch` with 10,000 polygon
/// favourites (its noding builds monotone chains and an STRtree per polygon; see
/// Benchmarks/LOG.md, "Places: a polygon's ring proved simple"), and most outlines are simple
/// rings with no holes.
///
/// The proof. A closed ring p₀ … pₙ (pₙ = p₀) is simple if every two consecutive edges meet
/// only at their shared vertex and every two other edges do not meet. Consecutive edges a→b→c
/// meet only at b when a, b, c turn (are not collinear). Two edges are disjoint when the ends of
/// one lie strictly on the same side of the other's line (the line then separates that edge
/// from the other). Edges whose bounding boxes do not overlap are disjoint too, and so are two
/// edges of one run of edges whose x strictly grows (or strictly falls) all along, when they are
/// not consecutive: edges i and j ≥ i + 2 of such a run span the x of [xᵢ, xᵢ₊₁] and
/// [xⱼ, xⱼ₊₁], apart since xᵢ₊₁ < xᵢ₊₂ ≤ xⱼ. So the ring is cut into its longest such runs
/// (monotone chains, as GEOS's noding has; an edge of constant x is a run alone), and only edges
/// of two different runs whose boxes overlap are tested: a sweep over the runs sorted by their
/// least x finds the pairs of runs whose boxes overlap, and within such a pair the edges of each,
/// in order of x, are matched like two sorted lists of intervals. Every side is taken with
/// Shewchuk's filtered orientation ("Adaptive Precision Floating-Point Arithmetic and Fast Robust
/// Geometric Predicates", 1997): the determinant in doubles with its error bound
/// (3 + 16ε)ε (|detleft| + |detright|); a sign within the bound is no proof, and the ring goes
/// to GEOS. So do repeated vertices, collinear turns, edges that touch, and rings whose runs and
/// edges overlap in x so much that the sweep would pass its budget (256 runs and edges looked at
/// an edge, on average): the proof costs O(n log n) at most, about what GEOS's check costs, and
/// a park's outline, whose runs are about three edges long, takes about four looks an edge.
///
/// GEOS's check of a polygon with a shell alone adds to simplicity only what the readers check
/// first (finite positions, a closed ring of at least four) and at least three distinct points,
/// which a ring whose every vertex turns has.
///
///     RingSimplicity.isCertainlySimple(square)   // true
///     RingSimplicity.isCertainlySimple(bowtie)   // false: GEOS says "Self-intersection"
enum RingSimplicity {
    /// Whether `ring` (closed: its last position repeats the first) is certainly simple with
    /// longitude as x and latitude as y; false where GEOS must decide.
    static func isCertainlySimple(_ ring: [Coordinate]) -> Bool {
        let n = ring.count - 1
        guard n >= 3, ring[0] == ring[n] else { return false }
        return ring.withUnsafeBufferPointer { ring in
            // Every vertex turns: consecutive edges meet only where they join.
            var a = ring[n - 1]
            for i in 0..<n {
                let (b, c) = (ring[i], ring[i + 1])
                if orientation(a, b, c) == 0 { return false }
                a = b
            }
            var runs = Run.runs(of: ring, edges: n)
            runs.sort { $0.minX < $1.minX }
            var budget = 256 * n
            return runs.withUnsafeBufferPointer { runs in
                for a in runs.indices {
                    let run = runs[a]
                    var b = a + 1
                    while b < runs.count, runs[b].minX <= run.maxX {
                        // Every run and edge looked at counts, so that no ring costs more than
                        // 256 an edge here (many long edges over one stretch of x go to GEOS).
                        budget -= 1
                        guard budget > 0 else { return false }
                        let other = runs[b]
                        b += 1
                        if other.maxY < run.minY || other.minY > run.maxY { continue }
                        guard apart(run, other, in: ring, edges: n, budget: &budget) else { return false }
                    }
                }
                return true
            }
        }
    }

    /// Whether every edge of `run` is proved apart from every edge of `other` (or consecutive
    /// with it, which the turns proved): each edge of `run` in order of x against the edges of
    /// `other` whose x overlaps its own, found from a start that only moves forward (both lists'
    /// least and greatest x grow).
    private static func apart(
        _ run: Run, _ other: Run, in ring: UnsafeBufferPointer<Coordinate>, edges n: Int, budget: inout Int
    ) -> Bool {
        var first = 0
        for k in 0..<run.count {
            let e = run.edge(k)
            let (p, q) = (ring[e], ring[e + 1])
            let (minX, maxX) = (min(p.longitude, q.longitude), max(p.longitude, q.longitude))
            let (minY, maxY) = (min(p.latitude, q.latitude), max(p.latitude, q.latitude))
            while first < other.count, other.maxX(of: first, in: ring) < minX { first += 1 }
            var j = first
            while j < other.count {
                let f = other.edge(j)
                let (r, s) = (ring[f], ring[f + 1])
                guard min(r.longitude, s.longitude) <= maxX else { break }
                budget -= 1
                guard budget > 0 else { return false }
                j += 1
                if max(r.latitude, s.latitude) < minY || min(r.latitude, s.latitude) > maxY { continue }
                // Consecutive edges (the first and the last are too) were proved by their turn.
                let gap = abs(e - f)
                if gap == 1 || gap == n - 1 { continue }
                guard separated(p, q, from: r, s) || separated(r, s, from: p, q) else { return false }
            }
        }
        return true
    }

    /// A longest run of edges whose x strictly grows, or strictly falls (or one edge of constant
    /// x), with its bounding box.
    private struct Run {
        /// Its first edge (edge i joins vertices i and i + 1) and how many.
        var start: Int
        var count: Int
        /// Whether x falls along it: its edges in order of x are then the last one first.
        var falls: Bool
        var minX: Double
        var maxX: Double
        var minY: Double
        var maxY: Double

        /// The k-th of its edges in order of x.
        @inline(__always)
        func edge(_ k: Int) -> Int { falls ? start + count - 1 - k : start + k }

        /// The greatest x of its k-th edge in order of x.
        @inline(__always)
        func maxX(of k: Int, in ring: UnsafeBufferPointer<Coordinate>) -> Double {
            let e = edge(k)
            return max(ring[e].longitude, ring[e + 1].longitude)
        }

        /// The ring's edges cut into runs, in the ring's order.
        static func runs(of ring: UnsafeBufferPointer<Coordinate>, edges n: Int) -> [Run] {
            var runs: [Run] = []
            var i = 0
            while i < n {
                let direction = sign(ring[i + 1].longitude - ring[i].longitude)
                var end = i + 1
                if direction != 0 {
                    while end < n, sign(ring[end + 1].longitude - ring[end].longitude) == direction { end += 1 }
                }
                var (minY, maxY) = (ring[i].latitude, ring[i].latitude)
                for v in i + 1...end {
                    minY = min(minY, ring[v].latitude)
                    maxY = max(maxY, ring[v].latitude)
                }
                let (x0, x1) = (ring[i].longitude, ring[end].longitude)
                runs.append(
                    Run(start: i, count: end - i, falls: direction < 0, minX: min(x0, x1), maxX: max(x0, x1), minY: minY, maxY: maxY))
                i = end
            }
            return runs
        }

        @inline(__always)
        private static func sign(_ dx: Double) -> Int { dx > 0 ? 1 : dx < 0 ? -1 : 0 }
    }

    /// Whether r and s lie strictly on the same side of the line through p and q.
    @inline(__always)
    private static func separated(_ p: Coordinate, _ q: Coordinate, from r: Coordinate, _ s: Coordinate) -> Bool {
        let first = orientation(p, q, r)
        return first != 0 && first == orientation(p, q, s)
    }

    /// The sign of the turn a → b → c (1 left, −1 right), or 0 when the doubles cannot prove
    /// it (collinear, or within the rounding of the determinant).
    @inline(__always)
    static func orientation(_ a: Coordinate, _ b: Coordinate, _ c: Coordinate) -> Int {
        let left = (a.longitude - c.longitude) * (b.latitude - c.latitude)
        let right = (a.latitude - c.latitude) * (b.longitude - c.longitude)
        let determinant = left - right
        let size = abs(left) + abs(right)
        // Products this small could have lost bits to underflow, which the bound does not cover.
        guard size > 1e-250 else { return 0 }
        let bound = errorBound * size
        return determinant > bound ? 1 : determinant < -bound ? -1 : 0
    }

    /// Shewchuk's ccwerrboundA, (3 + 16ε)ε with ε = 2⁻⁵³.
    private static let errorBound = (3 + 16 * 0x1p-53) * 0x1p-53
}
