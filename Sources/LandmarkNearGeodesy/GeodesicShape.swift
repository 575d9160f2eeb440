import Glibc
@_spi(Inlining) import LandmarkNearCore

/// A landmark that is a place, ready for distances: its areas (`GeodesicMultiPolygon`) or lines
/// (`GeodesicMultiLineString`), and a cap that holds all of it, for the cheap bounds that spare
/// most fixes any geodesic.
///
/// The cap: `center` is the direction of the mean of the vertices' Earth-centred points, and
/// every point of the place lies within `reach` of it. Why `reach` bounds the interior of an
/// area too: the distance from a fixed point has no local maximum short of its cut locus, so
/// over a region that does not reach the antipode of `center` (an area is the smaller region its
/// rings bound, and `center` is among its vertices' directions) the largest distance is on the
/// boundary; and every point of an edge is within half the edge's length of one of its ends (both bounded
/// from chords).
///
///     let park = GeodesicShape(.areas([[ring]]))!
///     park.distance(from: fix)   // 0 inside, else metres to the nearest edge
///
/// A class, immutable: the engine takes a favourite's place from its table for every fix near
/// it, which as a value retained each of its arrays (measured with `EdgeChain`'s: retains were a
/// twelfth of a replay's engine time with 10,000 polygon favourites; see Benchmarks/LOG.md).
@_spi(Inlining) public final class GeodesicShape: Sendable {
    enum Body: Sendable {
        case areas(GeodesicMultiPolygon)
        case lines(GeodesicMultiLineString)
    }

    let body: Body
    /// The edges of every ring (each polygon's shell, then its holes) or line, in order:
    /// `distanceBounds` walks them in place, where walking the polygons copied each one.
    let chains: [EdgeChain]
    /// The cap that holds the whole place.
    public let center: Coordinate
    public let reach: Double

    /// nil when a ring is not a ring or a line has no position (the catalog readers refuse
    /// those first).
    public init?(_ shape: LandmarkShape, geodesic: Geodesic = .wgs84) {
        switch shape {
        case .areas(let polygons):
            guard let made = GeodesicMultiPolygon(areas: polygons, geodesic: geodesic) else { return nil }
            body = .areas(made)
        case .lines(let paths):
            var made: [GeodesicLineString] = []
            for path in paths {
                guard let line = GeodesicLineString(path, geodesic: geodesic) else { return nil }
                made.append(line)
            }
            body = .lines(GeodesicMultiLineString(made))
        }
        switch body {
        case .areas(let areas): chains = areas.polygons.flatMap { [$0.shell.chain] + $0.holes.map(\.chain) }
        case .lines(let lines): chains = lines.lines.map(\.chain)
        }
        let positions = shape.allPositions
        guard let first = positions.first else { return nil }
        let points = Self.points(of: shape, positions, made: body)
        var sum = EarthCenteredPoint(x: 0, y: 0, z: 0)
        for point in points {
            sum.x += point.x
            sum.y += point.y
            sum.z += point.z
        }
        let length = (sum.x * sum.x + sum.y * sum.y + sum.z * sum.z).squareRoot()
        // A mean that nearly cancels (a place around the globe) gives no direction: its first
        // vertex then.
        let center: Coordinate
        if length > 1e-6 * EllipsoidConstants.equatorialRadius * Double(positions.count) {
            let horizontal = (sum.x * sum.x + sum.y * sum.y).squareRoot()
            center = Coordinate(
                latitude: atan2(sum.z, horizontal * (1 - EllipsoidConstants.eccentricitySquared)) * 180 / .pi,
                longitude: atan2(sum.y, sum.x) * 180 / .pi)
        } else {
            center = Coordinate(latitude: first.latitude, longitude: first.longitude)
        }
        // Bounds from chords (`GeodesicBounds.upper`), not geodesics: the cap only has to hold
        // the place, and a catalog's places are made by the thousand.
        let centerPoint = EarthCenteredPoint(center)
        var farthestChord = 0.0
        var longestChord = 0.0
        var previous: EarthCenteredPoint?
        for point in points {
            farthestChord = max(farthestChord, centerPoint.chord(to: point))
            if let previous { longestChord = max(longestChord, previous.chord(to: point)) }
            previous = point
        }
        self.center = center
        // A millimetre for the rounding of the chords.
        self.reach = GeodesicBounds.upper(chord: farthestChord) + GeodesicBounds.upper(chord: longestChord) / 2 + 0.001
    }

    /// The Earth-centred points of `shape.allPositions`, in order: taken from the edges of
    /// `body` (made from the same positions) where the edge's vertex is the position itself,
    /// else made (a longitude beyond ±180 that a ring reduced). The same points as made one by
    /// one, bit for bit; made twice, they were a tenth of the start-up of 10,000 polygons.
    private static func points(
        of shape: LandmarkShape, _ positions: [Coordinate], made body: Body
    ) -> [EarthCenteredPoint] {
        func same(_ a: Coordinate, _ b: Coordinate) -> Bool {
            a.latitude.bitPattern == b.latitude.bitPattern && a.longitude.bitPattern == b.longitude.bitPattern
        }
        var points: [EarthCenteredPoint] = []
        points.reserveCapacity(positions.count)
        func add(_ positions: [Coordinate], _ chain: EdgeChain) {
            for (j, position) in positions.enumerated() {
                if j < chain.vertices.count, same(chain.vertices[j], position) {
                    points.append(chain.points[j])
                } else {
                    points.append(EarthCenteredPoint(position))
                }
            }
        }
        switch (shape, body) {
        case (.areas(let polygons), .areas(let made)):
            for (rings, polygon) in zip(polygons, made.polygons) {
                for (ring, madeRing) in zip(rings, CollectionOfOne(polygon.shell) + polygon.holes) { add(ring, madeRing.chain) }
            }
        case (.lines(let paths), .lines(let made)):
            for (path, line) in zip(paths, made.lines) { add(path, line.chain) }
        default:
            break
        }
        // A body is made from the same parts one for one; should a count ever differ, every
        // point is made.
        return points.count == positions.count ? points : positions.map(EarthCenteredPoint.init)
    }

    /// The geodesic distance (metres) from `p` to the place: 0 in an area (its boundary
    /// included), else to its nearest edge.
    public func distance(from p: Coordinate) -> Double {
        switch body {
        case .areas(let areas): areas.distance(from: p)
        case .lines(let lines): lines.distance(from: p)
        }
    }

    /// Bounds of `distance(from:)` without a geodesic: (0, 0) in an area, else the least over
    /// the edges of their chord bounds (`GeodesicEdge.distanceBounds`), a few metres apart at
    /// most (the edges' bulges) and usually micrometres. The engine decides with them, and
    /// measures exactly only where a limit falls between them or an event reports the distance.
    public func distanceBounds(from p: Coordinate) -> (lower: Double, upper: Double) {
        distanceBounds(from: p, EarthCenteredPoint(p))
    }

    /// `distanceBounds(from: p)`, where `point` is `p`'s Earth-centred point.
    public func distanceBounds(from p: Coordinate, _ point: EarthCenteredPoint) -> (lower: Double, upper: Double) {
        if case .areas(let areas) = body, areas.contains(p, point) { return (0, 0) }
        var bounds = (lower: Double.infinity, upper: Double.infinity)
        for i in chains.indices {
            let chainBounds = chains[i].bounds(from: point, within: bounds.upper)
            bounds = (min(bounds.lower, chainBounds.lower), min(bounds.upper, chainBounds.upper))
        }
        return bounds
    }

    /// Where along `segment` the place comes nearest: the least distance from a point of the
    /// segment to the place (within a millimetre), and the first point of the segment at that
    /// distance (a segment that runs through an area is nearest, at 0, where it enters it).
    ///
    /// The distance g(s) from the point s metres along the segment is 1-Lipschitz (moving a point
    /// by d changes its distance to any set by at most d), so no point of a piece [a, b] probed in
    /// its middle is nearer than g(middle) − (b − a)/2. A best-first search over pieces finds the
    /// least distance to `tolerance`; then the first piece, left to right, that can hold a point
    /// within `tolerance` of it is halved down to a millimetre.
    public func nearestApproach(along segment: GeodesicSegment, tolerance: Double = 0.0005) -> (distance: Double, along: Double) {
        let length = segment.length
        func g(_ s: Double) -> Double { distance(from: segment.point(atDistance: s)) }
        guard length > 0 else { return (g(0), 0) }
        struct Piece {
            var lo: Double
            var hi: Double
            var middle: Double
            var bound: Double { middle - (hi - lo) / 2 }
        }
        var best = min(g(0), g(length))
        var pieces = [Piece(lo: 0, hi: length, middle: g(length / 2))]
        best = min(best, pieces[0].middle)
        // Best first: the piece with the lowest bound is split next.
        while let index = pieces.indices.min(by: { pieces[$0].bound < pieces[$1].bound }), pieces[index].bound < best - tolerance {
            let piece = pieces.remove(at: index)
            let half = (piece.hi - piece.lo) / 2
            guard half > 0.0005 else { continue }
            for (lo, hi) in [(piece.lo, piece.lo + half), (piece.lo + half, piece.hi)] {
                let middle = g((lo + hi) / 2)
                best = min(best, middle)
                pieces.append(Piece(lo: lo, hi: hi, middle: middle))
            }
            if best == 0 { break }
        }
        // The first point within the tolerance of the least distance.
        let target = best + tolerance
        if g(0) <= target { return (best, 0) }
        func first(_ lo: Double, _ hi: Double, _ middle: Double) -> Double? {
            if middle - (hi - lo) / 2 > target { return nil }
            if hi - lo <= 0.001 { return middle <= target + 0.001 ? (lo + hi) / 2 : nil }
            let half = (hi - lo) / 2
            if let found = first(lo, lo + half, g(lo + half / 2)) { return found }
            return first(lo + half, hi, g(lo + half + half / 2))
        }
        let along = first(0, length, g(length / 2)) ?? length
        return (best, along)
    }
}
