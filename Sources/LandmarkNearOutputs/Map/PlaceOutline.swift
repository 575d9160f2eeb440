@_spi(Inlining) import LandmarkNearCore
@_spi(Inlining) import LandmarkNearGeodesy

/// The radius outline of a place: the boundary of the set of points within R of it on the WGS84
/// ellipsoid, as rings whose every vertex is at the exact geodesic distance R from the place
/// (`GeodesicShape.distance(from:)`, here `PlaceDistance`) within R / 10⁶ — but for one where two
/// edges are joined at their crossing (`untangled`) — and whose edges, drawn straight in
/// longitude/latitude, stay within R / 2,000 of R at their midpoints.
///
/// How:
/// 1. The place goes into the azimuthal equidistant plane about its cap's centre
///    (`AzimuthalEquidistant`), its geodesic edges cut until each piece's chord is within R / 100
///    of the edge's image there.
/// 2. GEOS buffers it by R in that plane (round joins and caps, 32 edges a quarter turn: an arc's
///    chord is then within R / 3,300 of it, as a 128-vertex circle's is) and hands back the rings.
/// 3. Each vertex is moved along the ring's outward normal (in the plane) to the exact distance R
///    (`SecantRoot`): the distance to a place is 1-Lipschitz with a slope of about 1 outside it,
///    and the plane is off by its distortion only (0.4 % at 1,000 km from the centre), so two or
///    three steps settle it.
/// 4. Where the midpoint of an edge, in longitude/latitude, is farther than R / 2,000 from R,
///    a vertex is put there the same way, and both halves are looked at again (12 times at most).
///
/// An outline that holds both poles (the world less a region around the place's far side) is
/// not drawn, as a circle holding both is not.
///
///     let outline = PlaceOutline(GeodesicShape(trail)!, distance: PlaceDistance(trail)!, shape: trail,
///                                radius: 500, geos: PlaneGEOS())
///     outline?.polygons   // [[GlobeRing]]: the shell and its holes, each polygon
struct PlaceOutline: Sendable {
    /// The outline's areas, each its outer ring and then its holes, closed, unsplit, longitudes
    /// in [-180, 180]; each ring with the pole its region holds.
    let polygons: [[GlobeRing]]
    /// 1 when the outline holds the North Pole, -1 the South Pole, 0 neither.
    let enclosedPole: Int

    /// nil when the outline holds both poles.
    /// - Parameters:
    ///   - place: the place's cap (its centre is the plane's).
    ///   - distance: the exact distance to the place.
    init?(
        _ place: GeodesicShape, distance: PlaceDistance, shape: LandmarkShape, radius: Double, geos: PlaneGEOS,
        geodesic: Geodesic = .wgs84
    ) {
        let north = distance.distance(from: Coordinate(latitude: 90, longitude: 0)) <= radius
        let south = distance.distance(from: Coordinate(latitude: -90, longitude: 0)) <= radius
        guard !(north && south) else { return nil }
        enclosedPole = north ? 1 : south ? -1 : 0
        let plane = AzimuthalEquidistant(center: place.center, geodesic: geodesic)
        let settler = Settler(place: distance, plane: plane, radius: radius)

        // 1 and 2: the place in the plane, buffered part by part.
        var buffers: [PlaneGEOS.Geometry] = []
        let tolerance = radius / 100
        switch shape {
        case .areas(let areas):
            for rings in areas {
                let planar = rings.map { PlaceOutline.planar($0, plane: plane, tolerance: tolerance, geodesic: geodesic) }
                if let polygon = geos.polygon(planar), let valid = geos.valid(polygon),
                    let buffer = geos.buffer(valid, by: radius, quadrantSegments: 32)
                {
                    buffers.append(buffer)
                }
            }
        case .lines(let paths):
            for path in paths {
                let planar = PlaceOutline.planar(path, plane: plane, tolerance: tolerance, geodesic: geodesic)
                if let line = geos.lineString(planar), let buffer = geos.buffer(line, by: radius, quadrantSegments: 32) {
                    buffers.append(buffer)
                }
            }
        }
        guard let all = geos.collection(buffers), let merged = geos.union(all) else {
            polygons = []
            return
        }

        // 3 and 4: every ring settled at R, then untangled.
        let northImage = plane.project(Coordinate(latitude: 90, longitude: 0))
        var polygons: [[GlobeRing]] = []
        for rings in geos.polygons(of: merged) {
            var pieces: [[GlobeRing]] = []
            for (n, ring) in rings.enumerated() {
                // Shells counterclockwise, holes clockwise: the outline's region on the left,
                // so the outward normal (the distance growing) on the right.
                let oriented = (PlaceOutline.signedArea(ring) > 0) == (n == 0) ? ring : ring.reversed()
                for (planar, positions) in PlaceOutline.untangled(settler.ring(oriented), plane: plane, geos: geos) {
                    // Around the axis, the ring's own side (the bounded one in the plane) holds
                    // the North Pole if the pole's image is inside the ring, else the South Pole.
                    let pole = abs(GlobeRing.turn(positions)) > 180 ? (PlaceOutline.encloses(planar, northImage) ? 1 : -1) : 0
                    let ring = GlobeRing(positions: positions, pole: pole)
                    if n == 0 { pieces.append([ring]) } else { for k in pieces.indices { pieces[k].append(ring) } }
                }
            }
            polygons += pieces
        }
        self.polygons = polygons
    }

    /// A settled ring without the small loops it may make where the outline bends inwards
    /// sharply (at a cusp, a vertex moved to R can land beyond a neighbour a few metres away):
    /// GEOS's buffer by 0 keeps the region the ring winds around positively and drops such
    /// loops, putting a vertex where the ring crossed itself, on two edges whose vertices are at
    /// R and whose midpoints are within R / 2,000 of it. Each ring comes back closed, in the
    /// plane and on the globe.
    static func untangled(_ ring: [Settler.Vertex], plane: AzimuthalEquidistant, geos: PlaneGEOS)
        -> [(planar: [SIMD2<Double>], positions: [Coordinate])]
    {
        let planar = ring.map(\.plane)
        guard let polygon = geos.polygon([planar]) else { return [] }
        if geos.isValid(polygon) { return [(planar, ring.map(\.coordinate))] }
        guard let clean = geos.buffer(polygon, by: 0, quadrantSegments: 32) else { return [] }
        var known: [SIMD2<Double>: Coordinate] = [:]
        for vertex in ring { known[vertex.plane] = vertex.coordinate }
        let clockwise = signedArea(planar) < 0
        return geos.polygons(of: clean).compactMap { rings in
            guard let shell = rings.first, shell.count >= 4 else { return nil }
            let oriented = (signedArea(shell) < 0) == clockwise ? shell : shell.reversed()
            return (oriented, oriented.map { known[$0] ?? plane.unproject($0) })
        }
    }

    /// A ring or path of the place in the plane, its geodesic edges cut until each piece's chord
    /// is within `tolerance` of the edge's image at its middle (10 halvings at most).
    static func planar(_ vertices: [Coordinate], plane: AzimuthalEquidistant, tolerance: Double, geodesic: Geodesic)
        -> [SIMD2<Double>]
    {
        guard let first = vertices.first else { return [] }
        var out = [plane.project(first)]
        func cut(_ a: Coordinate, _ pa: SIMD2<Double>, _ b: Coordinate, _ pb: SIMD2<Double>, depth: Int) {
            let line = geodesic.line(from: a, to: b)
            let middle = line.position(at: line.length / 2).coordinate
            let pm = plane.project(middle)
            let chord = (pa + pb) / 2 - pm
            if depth < 10 && (chord * chord).sum() > tolerance * tolerance {
                cut(a, pa, middle, pm, depth: depth + 1)
                cut(middle, pm, b, pb, depth: depth + 1)
            } else {
                out.append(pb)
            }
        }
        for (a, b) in zip(vertices, vertices.dropFirst()) {
            cut(a, out[out.count - 1], b, plane.project(b), depth: 0)
        }
        // A closed ring stays closed exactly.
        if vertices.count > 1 && vertices.first == vertices.last { out[out.count - 1] = out[0] }
        return out
    }

    /// Shoelace area of a closed planar ring: positive for a counterclockwise one.
    static func signedArea(_ ring: [SIMD2<Double>]) -> Double {
        var sum = 0.0
        for (a, b) in zip(ring, ring.dropFirst()) { sum += a.x * b.y - b.x * a.y }
        return sum / 2
    }

    /// Whether `p` is inside the closed planar ring (crossings of a ray to the east).
    static func encloses(_ ring: [SIMD2<Double>], _ p: SIMD2<Double>) -> Bool {
        var inside = false
        for (a, b) in zip(ring, ring.dropFirst()) where (a.y > p.y) != (b.y > p.y) {
            if p.x < a.x + (p.y - a.y) * (b.x - a.x) / (b.y - a.y) { inside.toggle() }
        }
        return inside
    }
}
