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
struct EdgeBlock: Sendable {
    let center: EarthCenteredPoint
    let radius: Double
    let edges: Range<Int>

    /// Edges per run: a ring of a few hundred edges in a few dozen runs, each run's ball tested
    /// with one square root where its edges take one each.
    static let length = 16

    /// The runs of a chain's edges (edge i from `points[i]` to `points[i + 1]`, with
    /// `measures[i]`), `length` edges each (the last may be shorter); none for a chain of fewer
    /// than two runs, which is scanned whole.
    static func blocks(points: [EarthCenteredPoint], measures: [GeodesicEdge.Measures]) -> [EdgeBlock] {
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
            blocks.append(EdgeBlock(center: center, radius: radius * (1 + 1e-12) + GeodesicBounds.margin, edges: range))
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
