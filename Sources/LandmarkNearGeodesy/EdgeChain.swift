@_spi(Inlining) import LandmarkNearCore

/// The edges of a ring or a line, and a ball that holds all of them: the nearest of the edges to
/// a point, exactly, computing exact distances (`GeodesicSegment`) only for the edges that the
/// chord bounds (`GeodesicEdge.distanceBounds`) cannot rule out.
///
/// The ball: its centre c is the mean of the vertices' Earth-centred points, its radius the
/// largest over the edges of max(|cA|, |cB|) + h: every point of an edge is within h of a point
/// of its chord AB (`GeodesicEdge`), which is no farther from c than A or B (a ball is convex).
/// So no edge is nearer to P than |Pc| − radius in a straight line, nor along the surface.
///
///     let chain = EdgeChain(vertices: [a, b, c], closed: false, geodesic: .wgs84)
///     chain.distance(from: p, EarthCenteredPoint(p), below: .infinity)
///
/// A class, immutable: a ring or line holds its chain by reference, so that handing a ring to
/// a function (every ring near every fix) retains one object instead of copying the edges',
/// the runs' and the geodesic's storage (the geodesic alone is 480 bytes; measured: the copies
/// were 4 % of a replay with 10,000 polygon favourites, see Benchmarks/LOG.md).
///
/// The edges are kept as their vertices, each once, and what each edge adds
/// (`GeodesicEdge.Measures`): edge i runs from vertex i to vertex i + 1. 80 bytes an edge where
/// the edges themselves are 120; `subscript(edge:)` makes an edge whole where one is needed.
final class EdgeChain: Sendable {
    /// The vertices, one more than the edges (a ring's first is repeated at its end).
    let vertices: [Coordinate]
    /// The vertices' Earth-centred points.
    let points: [EarthCenteredPoint]
    /// Per edge, what it holds besides its ends.
    let measures: [GeodesicEdge.Measures]
    let center: EarthCenteredPoint
    let radius: Double
    let geodesic: Geodesic
    /// Runs of consecutive edges with their own balls (`EdgeBlock`), for `bounds`; empty for
    /// a short chain.
    let blocks: [EdgeBlock]

    /// The edges between consecutive `vertices` (at least one), and from the last back to the
    /// first if `closed`.
    ///
    /// The edges are made one at a time and only their measures kept: no array of whole edges
    /// (120 bytes each) is written and read back.
    convenience init(vertices: [Coordinate], closed: Bool, geodesic: Geodesic) {
        let count = closed ? vertices.count : max(1, vertices.count - 1)
        var points = vertices.map(EarthCenteredPoint.init)
        var measures: [GeodesicEdge.Measures] = []
        measures.reserveCapacity(count)
        for i in 0..<count {
            let next = vertices.count == 1 ? 0 : (i + 1) % vertices.count
            measures.append(GeodesicEdge(from: vertices[i], to: vertices[next], points[i], points[next], geodesic: geodesic).measures)
        }
        // The chain's vertices: edge i's start, and the last edge's end.
        var chained = vertices
        if closed || vertices.count == 1 {
            chained.append(vertices[0])
            points.append(points[0])
        }
        self.init(vertices: chained, points: points, measures: measures, geodesic: geodesic)
    }

    /// The chain of `edges` (at least one), each starting where the one before it ends.
    ///
    /// `shared`: the vertices as the caller holds them (a catalog's ring, closed, or its line),
    /// kept as they are, storage shared, when they are the edges' ends bit for bit: a
    /// catalog's places then hold their vertices once (16 bytes a vertex; 46 MB of 10,000
    /// polygons of 64–512 vertices). Otherwise the chain makes its own.
    convenience init(edges: [GeodesicEdge], sharing shared: [Coordinate]? = nil, geodesic: Geodesic) {
        var points: [EarthCenteredPoint] = []
        var measures: [GeodesicEdge.Measures] = []
        points.reserveCapacity(edges.count + 1)
        measures.reserveCapacity(edges.count)
        var sharable = shared?.count == edges.count + 1
        for (i, edge) in edges.enumerated() {
            points.append(edge.startPoint)
            measures.append(edge.measures)
            if sharable, let shared { sharable = Self.same(shared[i], edge.start) }
        }
        if let last = edges.last {
            points.append(last.endPoint)
            if sharable, let shared { sharable = Self.same(shared[edges.count], last.end) }
        }
        let vertices: [Coordinate]
        if sharable, let shared {
            vertices = shared
        } else {
            vertices = edges.map(\.start) + (edges.last.map { [$0.end] } ?? [])
        }
        self.init(vertices: vertices, points: points, measures: measures, geodesic: geodesic)
    }

    /// The chain whose edge i runs from `vertices[i]` to `vertices[i + 1]` (at least one edge;
    /// `points` their Earth-centred points) with `measures[i]`.
    init(vertices: [Coordinate], points: [EarthCenteredPoint], measures: [GeodesicEdge.Measures], geodesic: Geodesic) {
        precondition(!measures.isEmpty && vertices.count == measures.count + 1 && points.count == vertices.count)
        self.vertices = vertices
        self.points = points
        self.measures = measures
        self.geodesic = geodesic
        var x = 0.0
        var y = 0.0
        var z = 0.0
        for point in points.dropLast() {
            x += point.x
            y += point.y
            z += point.z
        }
        let n = Double(max(1, measures.count))
        let center = EarthCenteredPoint(x: x / n, y: y / n, z: z / n)
        var radius = 0.0
        for i in measures.indices {
            radius = max(radius, max(center.chord(to: points[i]), center.chord(to: points[i + 1])) + measures[i].bulge)
        }
        self.center = center
        // The rounding of the sums and chords is nanometres.
        self.radius = radius * (1 + 1e-12) + GeodesicBounds.margin
        blocks = EdgeBlock.blocks(vertices: vertices, points: points, measures: measures)
    }

    /// Whether `a` and `b` are the same bits (0 and −0 are not).
    static func same(_ a: Coordinate, _ b: Coordinate) -> Bool {
        a.latitude.bitPattern == b.latitude.bitPattern && a.longitude.bitPattern == b.longitude.bitPattern
    }

    /// Edge `i`, whole.
    @inline(__always)
    subscript(edge i: Int) -> GeodesicEdge {
        GeodesicEdge(start: vertices[i], end: vertices[i + 1], points[i], points[i + 1], measures[i])
    }

    /// Every edge, whole (made on each call).
    var edges: [GeodesicEdge] { measures.indices.map { self[edge: $0] } }

    /// The lower bound of edge `i` (`GeodesicEdge.lowerBound(from:)`).
    @inline(__always)
    private func lowerBound(ofEdge i: Int, from point: EarthCenteredPoint) -> Double {
        max(0, chordSegmentDistance(ofEdge: i, from: point) - measures[i].bulge - GeodesicBounds.margin)
    }

    /// The straight-line distance from `point` to edge `i`'s chord segment
    /// (`GeodesicEdge.chordSegmentDistance(from:)`).
    @inline(__always)
    private func chordSegmentDistance(ofEdge i: Int, from point: EarthCenteredPoint) -> Double {
        GeodesicEdge.chordSegmentDistance(from: point, points[i], points[i + 1], inverseChordSquared: measures[i].inverseChordSquared)
    }

    /// Whether the ball is small: a radius under 5,000 km, and neither pole in it. A ring in
    /// such a ball bounds, as its smaller region, the part of the ball's disc it encloses, which
    /// holds neither pole. Why: the centre is the mean of points of the surface, so it lies
    /// within r²/2R (2,000 km) of the surface, far outside the ellipsoid's evolute (within 43 km
    /// of its centre); from such a point the distance to the surface has one minimum and one
    /// maximum and no other critical point, so the surface within the ball is a disc; its area
    /// is about πr² (a sphere's cap is exactly π chord²), under a third of the ellipsoid's. So
    /// the region the ring encloses in the disc is the smaller of the two.
    var isSmall: Bool {
        let b = EllipsoidConstants.polarRadius
        return radius < 5_000_000
            && center.chord(to: EarthCenteredPoint(x: 0, y: 0, z: b)) > radius
            && center.chord(to: EarthCenteredPoint(x: 0, y: 0, z: -b)) > radius
    }

    /// A distance (metres) that no edge is nearer to `point` than.
    func lowerBound(from point: EarthCenteredPoint) -> Double {
        max(0, point.chord(to: center) - radius)
    }

    /// Bounds of the distance from `point` to the nearest edge (`GeodesicEdge.distanceBounds`):
    /// the least lower bound and the least upper bound over the edges. Where the ball alone
    /// puts every edge at `limit` or beyond, (ball's bound, infinity): nothing nearer than
    /// `limit` then. No allocation, no trigonometry.
    ///
    /// A long chain is scanned by runs (`EdgeBlock`): the run whose ball is nearest first, then
    /// each other run unless its ball's bound is no lower than both least values so far, when
    /// none of its edges could lower either. The result is the full scan's.
    func bounds(from point: EarthCenteredPoint, within limit: Double = .infinity) -> (lower: Double, upper: Double) {
        let ball = lowerBound(from: point)
        if ball >= limit { return (ball, .infinity) }
        var lower = Double.infinity
        var nearestChord = Double.infinity
        visitRuns(from: point) { range in
            scan(range, from: point, lower: &lower, nearestChord: &nearestChord)
        } unless: { bound in
            bound >= lower && bound >= nearestChord
        }
        return (max(0, lower - GeodesicBounds.margin), GeodesicBounds.upper(chord: nearestChord))
    }

    /// Calls `visit` with every run of edges (`EdgeBlock`; the whole chain when it has none),
    /// the run whose ball is nearest to `point` first, except the runs for which `skip` of
    /// their ball's bound says that none of their edges can matter any more.
    @inline(__always)
    private func visitRuns(from point: EarthCenteredPoint, _ visit: (Range<Int>) -> Void, unless skip: (Double) -> Bool) {
        guard !blocks.isEmpty else { return visit(measures.indices) }
        var first = 0
        var firstBound = Double.infinity
        for (i, block) in blocks.enumerated() {
            let bound = block.lowerBound(from: point)
            if bound < firstBound {
                firstBound = bound
                first = i
            }
        }
        visit(blocks[first].edges)
        for (i, block) in blocks.enumerated() where i != first && !skip(block.lowerBound(from: point)) {
            visit(block.edges)
        }
    }

    /// The least d − h, and the least of d + h and |PA|, over `range`'s edges, into the two.
    @inline(__always)
    private func scan(_ range: Range<Int>, from point: EarthCenteredPoint, lower: inout Double, nearestChord: inout Double) {
        for i in range {
            let d = chordSegmentDistance(ofEdge: i, from: point)
            let bulge = measures[i].bulge
            lower = min(lower, d - bulge)
            nearestChord = min(nearestChord, d + bulge, point.chord(to: points[i]))
        }
    }

    /// The exact distance (metres) from `p` (whose Earth-centred point is `point`) to the
    /// nearest edge when it is below `limit`; otherwise some distance at least `limit`
    /// (infinity when the ball alone rules the edges out). No allocation.
    ///
    /// Pass 1: an upper bound, from the least chord to a point of an edge that the bounds
    /// guarantee (d + h, or a vertex): `GeodesicBounds.upper` of it holds for that point, one
    /// call for all; and the edge whose chord is nearest, measured exactly first, so that its
    /// distance rules most others out. Pass 2: exact distances where the lower bound is not
    /// above the best so far (the edge of the least chord always is). Both passes skip runs of
    /// edges by their balls (`EdgeBlock`: every edge's d and d − h − margin are at least the
    /// ball's bound, less the margin); the result is the least exact distance either way.
    func distance(from p: Coordinate, _ point: EarthCenteredPoint, below limit: Double) -> Double {
        if lowerBound(from: point) >= limit { return .infinity }
        var nearestChord = Double.infinity
        var likeliest = 0
        var likeliestChord = Double.infinity
        visitRuns(from: point) { range in
            for i in range {
                let d = chordSegmentDistance(ofEdge: i, from: point)
                if d < likeliestChord {
                    likeliestChord = d
                    likeliest = i
                }
                nearestChord = min(nearestChord, d + measures[i].bulge, point.chord(to: points[i]))
            }
        } unless: { bound in
            bound >= likeliestChord && bound >= nearestChord
        }
        var bound = min(limit, GeodesicBounds.upper(chord: nearestChord))
        var nearest = Double.infinity
        if lowerBound(ofEdge: likeliest, from: point) <= bound {
            nearest = GeodesicSegment(self[edge: likeliest], geodesic: geodesic).nearestApproach(to: p, point).distance
            bound = min(bound, nearest)
        }
        visitRuns(from: point) { range in
            for i in range where i != likeliest && lowerBound(ofEdge: i, from: point) <= bound {
                let exact = GeodesicSegment(self[edge: i], geodesic: geodesic).nearestApproach(to: p, point).distance
                nearest = min(nearest, exact)
                bound = min(bound, exact)
            }
        } unless: { ball in
            ball - GeodesicBounds.margin > bound
        }
        return nearest
    }
}
