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
/// from the other). Edges whose bounding boxes do not overlap are disjoint too; a sweep over the
/// edges sorted by their least x tests only the pairs whose boxes overlap. Every side is taken
/// with Shewchuk's filtered orientation ("Adaptive Precision Floating-Point Arithmetic and Fast
/// Robust Geometric Predicates", 1997): the determinant in doubles with its error bound
/// (3 + 16ε)ε (|detleft| + |detright|); a sign within the bound is no proof, and the ring goes
/// to GEOS. So do repeated vertices, collinear turns, edges that touch, and rings whose edges
/// overlap in x so much that the sweep would pass its budget (256 boxes looked at an edge, on
/// average): the proof costs O(n log n) at most, about what GEOS's check costs, and most
/// outlines take a few boxes an edge.
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
        // Every vertex turns: consecutive edges meet only where they join.
        for i in 0..<n {
            let a = ring[i == 0 ? n - 1 : i - 1]
            let b = ring[i]
            let c = ring[i + 1]
            if orientation(a, b, c) == 0 { return false }
        }
        // The edges' boxes by their least x; each against those after it that start before it
        // ends (contiguous boxes, no index through the ring until two boxes overlap).
        var boxes = (0..<n).map { i in
            let (p, q) = (ring[i], ring[i + 1])
            return Box(
                minX: min(p.longitude, q.longitude), maxX: max(p.longitude, q.longitude),
                minY: min(p.latitude, q.latitude), maxY: max(p.latitude, q.latitude), edge: i)
        }
        boxes.sort { $0.minX < $1.minX }
        var budget = 256 * n
        return boxes.withUnsafeBufferPointer { boxes in
            ring.withUnsafeBufferPointer { ring in
                for a in 0..<n {
                    let box = boxes[a]
                    var b = a + 1
                    while b < n, boxes[b].minX <= box.maxX {
                        // Every box looked at counts, so that no ring costs more than 256 an edge
                        // here (many long edges over one stretch of x go to GEOS instead).
                        budget -= 1
                        guard budget > 0 else { return false }
                        let other = boxes[b]
                        b += 1
                        if other.maxY < box.minY || other.minY > box.maxY { continue }
                        // Consecutive edges (the first and the last are too) were proved above.
                        let gap = abs(box.edge - other.edge)
                        if gap == 1 || gap == n - 1 { continue }
                        let (p, q) = (ring[box.edge], ring[box.edge + 1])
                        let (r, s) = (ring[other.edge], ring[other.edge + 1])
                        guard separated(p, q, from: r, s) || separated(r, s, from: p, q) else { return false }
                    }
                }
                return true
            }
        }
    }

    /// An edge's bounding box.
    private struct Box {
        var minX: Double
        var maxX: Double
        var minY: Double
        var maxY: Double
        var edge: Int
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
