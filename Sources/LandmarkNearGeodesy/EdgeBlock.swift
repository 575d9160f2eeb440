@_spi(Inlining) import LandmarkNearCore

/// A run of consecutive edges of a chain (`EdgeChain`) and a ball that holds them, built as the
/// chain's own ball is: its centre c the mean of the run's start points, its radius the largest
/// over the run's edges of max(|cA|, |cB|) + h. Every point of the chord segment AB is within
/// max(|cA|, |cB|) of c (a ball is convex), so for each edge of the run the straight distance d
/// from P to AB, and |PA|, are at least |Pc| − max(|cA|, |cB|); d − h, d + h and |PA| are then
/// all at least |Pc| − radius. A run whose bound is no lower than what the chain's bounds have
/// already found cannot change them, and is skipped (`EdgeChain.bounds(from:within:)`).
///
/// The radius carries the chain's margin (a micrometre, `GeodesicBounds.margin`) over the
/// rounding of the chords, nanometres at the Earth's scale: a skipped run could only have
/// changed the bounds in their last bits, which the margin exceeds a thousandfold.
///
/// The run's longitudes, for a ring's crossing count (`GeodesicRing.locate`): when every edge
/// of the run is plain (|sweep| < 180°, no end at a pole) and its vertices' longitudes lie in
/// [west, east] within (−180, 180), narrower than 179°, a point whose longitude λ (in
/// (−180, 180]) is outside it has every edge of the run passed by the count's first test: each
/// end's offset x − λ has the sign of x − λ (exact in doubles) and is not 0, before it is
/// reduced to (−180, 180]; if one end's is reduced and the other's not, their offsets are more
/// than 180° apart (the ends are under 179° apart, the roundings nanodegrees). Otherwise
/// west = −∞ and east = +∞, and no point is outside.
struct EdgeBlock: Sendable {
    let center: EarthCenteredPoint
    let radius: Double
    let edges: Range<Int>
    let west: Double
    let east: Double

    /// Whether every edge of the run is passed by a ring's crossing count from a point at
    /// longitude `longitude` (in (−180, 180]; see above).
    @inline(__always)
    func isApart(fromMeridian longitude: Double) -> Bool {
        longitude < west || longitude > east
    }

    /// Edges per run: a ring of a few hundred edges in a few dozen runs, each run's ball tested
    /// with one square root where its edges take one each.
    static let length = 16

    /// The runs of a chain's edges (edge i from `points[i]` to `points[i + 1]`, with
    /// `measures[i]`), `length` edges each (the last may be shorter); none for a chain of fewer
    /// than two runs, which is scanned whole.
    static func blocks(vertices: [Coordinate], points: [EarthCenteredPoint], measures: [GeodesicEdge.Measures]) -> [EdgeBlock] {
        let count = measures.count
        guard count >= 2 * length else { return [] }
        var blocks: [EdgeBlock] = []
        blocks.reserveCapacity((count + length - 1) / length)
        for start in stride(from: 0, to: count, by: length) {
            let range = start..<min(start + length, count)
            var x = 0.0
            var y = 0.0
            var z = 0.0
            for i in range {
                x += points[i].x
                y += points[i].y
                z += points[i].z
            }
            let n = Double(range.count)
            let center = EarthCenteredPoint(x: x / n, y: y / n, z: z / n)
            var radius = 0.0
            for i in range {
                radius = max(radius, max(center.chord(to: points[i]), center.chord(to: points[i + 1])) + measures[i].bulge)
            }
            var (west, east) = (Double.infinity, -Double.infinity)
            var plain = true
            for i in range {
                plain = plain && abs(measures[i].sweep) < 180 && abs(vertices[i].latitude) != 90
            }
            for v in range.lowerBound...range.upperBound {
                west = min(west, vertices[v].longitude)
                east = max(east, vertices[v].longitude)
            }
            plain = plain && abs(vertices[range.upperBound].latitude) != 90 && west > -180 && east < 180 && east - west < 179
            blocks.append(
                EdgeBlock(
                    center: center, radius: radius * (1 + 1e-12) + GeodesicBounds.margin, edges: range,
                    west: plain ? west : -.infinity, east: plain ? east : .infinity))
        }
        return blocks
    }

    /// A distance (metres) that no edge of the run, nor its start, is nearer to `point` than,
    /// less its bulge (see above); negative inside the ball.
    @inline(__always)
    func lowerBound(from point: EarthCenteredPoint) -> Double {
        point.chord(to: center) - radius
    }
}
