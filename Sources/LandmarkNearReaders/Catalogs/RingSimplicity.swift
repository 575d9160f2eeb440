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
/// Before the sweep, a shell alone is tried as a star about the mean of its vertices
/// (`isCertainlyStarShaped`: one pass of orientations, no sort): convex rings, drawn circles and
/// boxes, and most drawn geofences are proved there; what it cannot prove, the sweep still may.
///
/// GEOS's check of a polygon with a shell alone adds to simplicity only what the readers check
/// first (finite positions, a closed ring of at least four) and at least three distinct points,
/// which a ring whose every vertex turns has.
///
/// A polygon with holes (a lake with its islands) is proved valid the same way, the sweep
/// running over the runs of all its rings at once (edges of two rings are never consecutive),
/// when besides every hole is inside the shell and outside every other hole: the rings are then
/// simple and pairwise disjoint, so each hole lies wholly inside or outside the shell and each
/// other hole, as its first vertex does; and disjoint rings, holes in the shell and none in
/// another, are all GEOS asks of a polygon's rings (no ring crosses or touches another, no hole
/// outside the shell or nested, a connected interior). A vertex's side of a ring is its winding
/// number (Sunday's half-open crossing rule, exact on y, each crossing's side an orientation as
/// above; an uncertain one sends the polygon to GEOS). More than 256 holes go to GEOS (each
/// hole's vertex is tested against every ring).
///
///     RingSimplicity.isCertainlySimple(square)   // true
///     RingSimplicity.isCertainlySimple(bowtie)   // false: GEOS says "Self-intersection"
///     RingSimplicity.isCertainlyValid([lake, island])   // true
enum RingSimplicity {
    /// Whether `ring` (closed: its last position repeats the first) is certainly simple with
    /// longitude as x and latitude as y; false where GEOS must decide.
    static func isCertainlySimple(_ ring: [Coordinate]) -> Bool {
        isCertainlyValid([ring])
    }

    /// Whether the polygon of `rings` (the shell, then the holes; each closed) is certainly
    /// valid in the longitude/latitude plane; false where GEOS must decide. A shell alone is
    /// first tried as a star (`isCertainlyStarShaped`), unless `tryingStar` is false (for tests
    /// of the sweep).
    static func isCertainlyValid(_ rings: [[Coordinate]], tryingStar: Bool = true) -> Bool {
        guard let shell = rings.first, rings.count <= 257 else { return false }
        // One ring is read where it is; several are laid end to end (a hole is the rare case).
        if rings.count == 1 {
            return shell.withUnsafeBufferPointer {
                (tryingStar && isCertainlyStarShaped($0)) || isCertainlyValid($0, spans: [Span(start: 0, count: shell.count)])
            }
        }
        var spans: [Span] = []
        var points: [Coordinate] = []
        points.reserveCapacity(rings.reduce(0) { $0 + $1.count })
        for ring in rings {
            spans.append(Span(start: points.count, count: ring.count))
            points += ring
        }
        return points.withUnsafeBufferPointer { isCertainlyValid($0, spans: spans) }
    }

    /// Where a ring's positions are among a polygon's: `count` of them from `start`, the last
    /// repeating the first; its edges are `start ..< start + count − 1`.
    private struct Span {
        var start: Int
        var count: Int
        var edges: Int { count - 1 }
    }

    private static func isCertainlyValid(_ ring: UnsafeBufferPointer<Coordinate>, spans: [Span]) -> Bool {
        guard ring.count < Int(Int32.max) else { return false }
        var runs: [Run] = []
        runs.reserveCapacity(ring.count / 2)
        var totalEdges = 0
        for (index, span) in spans.enumerated() {
            let n = span.edges
            guard n >= 3, ring[span.start] == ring[span.start + n] else { return false }
            // Every vertex turns: consecutive edges meet only where they join.
            var a = ring[span.start + n - 1]
            for i in span.start..<span.start + n {
                let (b, c) = (ring[i], ring[i + 1])
                if orientation(a, b, c) == 0 { return false }
                a = b
            }
            Run.add(runsOf: span, ring: index, in: ring, to: &runs)
            totalEdges += n
        }
        // Sorted by their keys and indices (16 bytes each) and then laid out in that order:
        // sorting the 48-byte runs themselves moved three times the bytes (measured: the sort
        // was a quarter of the proof's time on the benchmark's polygons; see Benchmarks/LOG.md).
        var order = runs.indices.map { (minX: runs[$0].minX, index: Int32(truncatingIfNeeded: $0)) }
        order.sort { $0.minX < $1.minX }
        runs = order.map { [runs] in runs[Int($0.index)] }
        var budget = 256 * totalEdges
        let apartAll = runs.withUnsafeBufferPointer { runs in
            for a in runs.indices {
                let run = runs[a]
                var b = a + 1
                while b < runs.count, runs[b].minX <= run.maxX {
                    // Every run and edge looked at counts, so that no ring costs more than 256 an
                    // edge here (many long edges over one stretch of x go to GEOS).
                    budget -= 1
                    guard budget > 0 else { return false }
                    let other = runs[b]
                    b += 1
                    if other.maxY < run.minY || other.minY > run.maxY { continue }
                    // Consecutive edges are of one ring: `ringEdges` tells the last from the first.
                    let ringEdges = run.ring == other.ring ? spans[run.ring].edges : 0
                    guard apart(run, other, in: ring, ringEdges: ringEdges, budget: &budget) else { return false }
                }
            }
            return true
        }
        guard apartAll else { return false }
        // Disjoint rings: each hole is wholly on one side of each other ring, as its first vertex.
        for (index, hole) in spans.enumerated().dropFirst() {
            let vertex = ring[hole.start]
            for (other, span) in spans.enumerated() where other != index {
                guard let winding = windingNumber(of: vertex, around: span, in: ring) else { return false }
                // In the shell (other == 0), outside every other hole.
                guard (winding != 0) == (other == 0) else { return false }
            }
        }
        return true
    }

    /// The winding number of the ring of `span` around `q` (Sunday's half-open rule: an edge
    /// counts if one end is at or below q's y and the other above), nil when the side of an edge
    /// that counts is uncertain (q on it or within the rounding).
    private static func windingNumber(of q: Coordinate, around span: Span, in ring: UnsafeBufferPointer<Coordinate>) -> Int? {
        var winding = 0
        for i in span.start..<span.start + span.edges {
            let (a, b) = (ring[i], ring[i + 1])
            if a.latitude <= q.latitude {
                guard b.latitude > q.latitude else { continue }
                let side = orientation(a, b, q)
                guard side != 0 else { return nil }
                if side > 0 { winding += 1 }
            } else {
                guard b.latitude <= q.latitude else { continue }
                let side = orientation(a, b, q)
                guard side != 0 else { return nil }
                if side < 0 { winding -= 1 }
            }
        }
        return winding
    }

    /// Whether every edge of `run` is proved apart from every edge of `other` (or consecutive
    /// with it, which the turns proved): each edge of `run` in order of x against the edges of
    /// `other` whose x overlaps its own, found from a start that only moves forward (both lists'
    /// least and greatest x grow).
    private static func apart(
        _ run: Run, _ other: Run, in ring: UnsafeBufferPointer<Coordinate>, ringEdges n: Int, budget: inout Int
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
                // Consecutive edges of a ring of n edges (its first and last are too) were proved
                // by their turn; n is 0 for edges of two rings.
                let gap = abs(e - f)
                if n > 0 && (gap == 1 || gap == n - 1) { continue }
                guard separated(p, q, from: r, s) || separated(r, s, from: p, q) else { return false }
            }
        }
        return true
    }

    /// A longest run of edges whose x strictly grows, or strictly falls (or one edge of constant
    /// x), with its bounding box.
    private struct Run {
        /// Its first edge (edge i joins positions i and i + 1) and how many, and its ring; kept
        /// in 32 bits (a polygon has fewer positions, `isCertainlyValid`), which makes a run 48
        /// bytes, not 64, to sort.
        private var start32: Int32
        private var count32: Int32
        private var ring32: Int32
        var start: Int { Int(start32) }
        var count: Int { Int(count32) }
        var ring: Int { Int(ring32) }
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

        /// The edges of the ring of `span` cut into runs, added in the ring's order.
        static func add(runsOf span: Span, ring index: Int, in ring: UnsafeBufferPointer<Coordinate>, to runs: inout [Run]) {
            let n = span.start + span.edges
            var i = span.start
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
                    Run(
                        start32: Int32(i), count32: Int32(end - i), ring32: Int32(index), falls: direction < 0, minX: min(x0, x1),
                        maxX: max(x0, x1), minY: minY, maxY: maxY))
                i = end
            }
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
