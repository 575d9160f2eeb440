import CGEOS
import Glibc
@_spi(Inlining) import LandmarkNearCore
@_spi(Inlining) import LandmarkNearGeodesy

/// Reads a landmark's geometry with GEOS — a GeoJSON geometry object (`Point`, `Polygon`,
/// `MultiPolygon`, `LineString`, `MultiLineString`) or WKT (a CSV `wkt` cell) — and checks it
/// as a catalog must: latitudes in range, rings closed with at least four positions, polygons
/// valid by GEOS (`GEOSisValidDetail_r`: no self-intersection, holes inside their shell, ...),
/// with GEOS's reason and the place where it found the problem.
///
/// GEOS validates in the plane, while edges here are geodesics. In longitude/latitude the plane is
/// right for the usual polygon, for one written across ±180° with longitudes beyond 180, for one
/// split at ±180° into parts (each part is validated alone, so that the parts may meet along the
/// antimeridian), and for a ring that runs along ±180° to a pole and back, as Natural Earth writes
/// Antarctica. A ring of vertices around a pole (its longitudes turn a full circle) is degenerate
/// in that plane, so it is validated in an azimuthal equidistant projection about the pole it
/// encloses, where it is an ordinary ring.
///
/// One GEOS context per reader: a reader is used by one thread at a time.
///
///     let reader = ShapeReader()
///     try reader.read(geoJSON: #"{"type":"LineString","coordinates":[[-135.3,59.5],[-135.2,59.6]]}"#)
///     // .shape(.lines([[59.5,-135.3, 59.6,-135.2]]))
package final class ShapeReader {
    /// What a geometry turned out to be.
    package enum Geometry: Sendable, Equatable {
        case point(Coordinate)
        /// An area or a line, and a point to stand for it where one point is shown (a point of
        /// the area, by GEOS's `GEOSPointOnSurface_r`; a line's middle vertex).
        case shape(LandmarkShape, representative: Coordinate)
    }

    /// Why a geometry was refused, in words a catalog error can carry.
    package struct Problem: Error, Sendable, Equatable {
        package var reason: String
    }

    private let context: OpaquePointer
    private let geoJSONReader: OpaquePointer
    private let wktReader: OpaquePointer
    /// GEOS's last error message (its handler writes it here).
    private let lastError = ErrorBox()

    private final class ErrorBox {
        var message = ""
    }

    /// Whether a polygon whose only ring `RingSimplicity` proves simple is accepted without
    /// GEOS's check (which would accept it); off only to compare the two.
    private let provesSimpleRings: Bool

    package init(provesSimpleRings: Bool = true) {
        self.provesSimpleRings = provesSimpleRings
        guard let context = GEOS_init_r(), let geoJSON = GEOSGeoJSONReader_create_r(context), let wkt = GEOSWKTReader_create_r(context)
        else { fatalError("GEOS: cannot create a context and its readers (out of memory)") }
        self.context = context
        geoJSONReader = geoJSON
        wktReader = wkt
        // The handler cannot capture: the box comes back through `userData`.
        GEOSContext_setErrorMessageHandler_r(
            context,
            { message, userData in
                guard let message, let userData else { return }
                Unmanaged<ErrorBox>.fromOpaque(userData).takeUnretainedValue().message = String(cString: message)
            }, Unmanaged.passUnretained(lastError).toOpaque())
    }

    deinit {
        GEOSGeoJSONReader_destroy_r(context, geoJSONReader)
        GEOSWKTReader_destroy_r(context, wktReader)
        GEOS_finish_r(context)
    }

    /// A GeoJSON geometry object, as text.
    package func read(geoJSON text: String) throws(Problem) -> Geometry {
        lastError.message = ""
        guard let geometry = GEOSGeoJSONReader_readGeometry_r(context, geoJSONReader, text) else {
            throw Problem(reason: "geometry is not GeoJSON that GEOS reads: \(failure)")
        }
        defer { GEOSGeom_destroy_r(context, geometry) }
        return try convert(geometry)
    }

    /// Well-known text (`POLYGON ((lon lat, ...))`).
    package func read(wkt text: String) throws(Problem) -> Geometry {
        lastError.message = ""
        guard let geometry = GEOSWKTReader_read_r(context, wktReader, text) else {
            throw Problem(reason: "wkt is not well-known text that GEOS reads: \(failure)")
        }
        defer { GEOSGeom_destroy_r(context, geometry) }
        return try convert(geometry)
    }

    /// A place whose positions a catalog scanner read (`GeometryScanner`): GEOS's geometry made
    /// from them (a Polygon or LineString, or with `multi` a MultiPolygon or MultiLineString)
    /// and checked as `read(geoJSON:)` checks the same geometry read by GEOS.
    package func read(parts: LandmarkShape, multi: Bool) throws(Problem) -> Geometry {
        lastError.message = ""
        func sequence(_ positions: [Coordinate]) -> OpaquePointer? {
            var xy: [Double] = []
            xy.reserveCapacity(2 * positions.count)
            for p in positions {
                xy.append(p.longitude)
                xy.append(p.latitude)
            }
            return GEOSCoordSeq_copyFromBuffer_r(context, xy, UInt32(positions.count), 0, 0)
        }
        func collection(_ type: GEOSGeomTypes, _ parts: [OpaquePointer]) -> OpaquePointer? {
            var items: [OpaquePointer?] = parts
            return items.withUnsafeMutableBufferPointer {
                GEOSGeom_createCollection_r(context, Int32(type.rawValue), $0.baseAddress, UInt32($0.count))
            }
        }
        var made: [OpaquePointer] = []
        var complete = true
        switch parts {
        case .lines(let paths):
            for path in paths {
                guard let line = sequence(path).flatMap({ GEOSGeom_createLineString_r(context, $0) }) else {
                    complete = false
                    break
                }
                made.append(line)
            }
        case .areas(let polygons):
            for rings in polygons {
                var geosRings: [OpaquePointer] = []
                for ring in rings {
                    guard let linear = sequence(ring).flatMap({ GEOSGeom_createLinearRing_r(context, $0) }) else { break }
                    geosRings.append(linear)
                }
                guard geosRings.count == rings.count, let shell = geosRings.first else {
                    for ring in geosRings { GEOSGeom_destroy_r(context, ring) }
                    complete = false
                    break
                }
                var holes: [OpaquePointer?] = Array(geosRings.dropFirst())
                let polygon = holes.withUnsafeMutableBufferPointer {
                    GEOSGeom_createPolygon_r(context, shell, $0.baseAddress, UInt32($0.count))
                }
                guard let polygon else {
                    complete = false
                    break
                }
                made.append(polygon)
            }
        }
        guard complete, !made.isEmpty else {
            for part in made { GEOSGeom_destroy_r(context, part) }
            throw Problem(reason: "invalid geometry: \(failure)")
        }
        let geometry: OpaquePointer?
        switch (parts, multi) {
        case (_, false): geometry = made.count == 1 ? made[0] : nil
        case (.lines, true): geometry = collection(GEOS_MULTILINESTRING, made)
        case (.areas, true): geometry = collection(GEOS_MULTIPOLYGON, made)
        }
        guard let geometry else {
            for part in made { GEOSGeom_destroy_r(context, part) }
            throw Problem(reason: "invalid geometry: \(failure)")
        }
        defer { GEOSGeom_destroy_r(context, geometry) }
        return try convert(geometry, madeFrom: parts)
    }

    /// `convert(_:)` of a geometry made from `parts`, whose positions GEOS keeps as given: the
    /// same checks in the same order, on the parts themselves, without reading every position
    /// back from GEOS one call at a time (twice for a shell: 4 % of the start-up's CPU with
    /// 10,000 polygons, by `perf`; see Benchmarks/LOG.md).
    private func convert(_ geometry: OpaquePointer, madeFrom parts: LandmarkShape) throws(Problem) -> Geometry {
        switch parts {
        case .areas(let polygons):
            for rings in polygons { try check(rings) }
            return .shape(parts, representative: representative(of: geometry, shell: polygons[0][0]))
        case .lines(let paths):
            for path in paths { try check(path: path) }
            return .shape(parts, representative: paths[0][paths[0].count / 2])
        }
    }

    private var failure: String {
        lastError.message.isEmpty ? "no reason given" : ShapeReader.shortened(lastError.message)
    }

    // MARK: from GEOS's geometry to the catalog's

    private func convert(_ geometry: OpaquePointer) throws(Problem) -> Geometry {
        switch Int32(GEOSGeomTypeId_r(context, geometry)) {
        case Int32(GEOS_POINT.rawValue):
            let position = try positions(of: geometry)
            guard let point = position.first else { throw Problem(reason: "geometry is an empty Point") }
            try ShapeReader.check([point])
            return .point(point)
        case Int32(GEOS_POLYGON.rawValue):
            let rings = try rings(of: geometry)
            return .shape(.areas([rings]), representative: representative(of: geometry, shell: rings[0]))
        case Int32(GEOS_MULTIPOLYGON.rawValue):
            var polygons: [[[Coordinate]]] = []
            for n in 0..<GEOSGetNumGeometries_r(context, geometry) {
                polygons.append(try rings(of: GEOSGetGeometryN_r(context, geometry, n)))
            }
            guard !polygons.isEmpty else { throw Problem(reason: "geometry is an empty MultiPolygon") }
            return .shape(.areas(polygons), representative: representative(of: geometry, shell: polygons[0][0]))
        case Int32(GEOS_LINESTRING.rawValue):
            let path = try path(of: geometry)
            return .shape(.lines([path]), representative: path[path.count / 2])
        case Int32(GEOS_MULTILINESTRING.rawValue):
            var paths: [[Coordinate]] = []
            for n in 0..<GEOSGetNumGeometries_r(context, geometry) { paths.append(try path(of: GEOSGetGeometryN_r(context, geometry, n))) }
            guard !paths.isEmpty else { throw Problem(reason: "geometry is an empty MultiLineString") }
            return .shape(.lines(paths), representative: paths[0][paths[0].count / 2])
        default:
            // GEOSGeomType_r returns a string the caller owns (GEOSFree_r).
            let name = GEOSGeomType_r(context, geometry)
            defer { if let name { GEOSFree_r(context, name) } }
            let type = name.map { String(cString: $0) } ?? "unknown"
            throw Problem(reason: "geometry is a \(type); a landmark is a Point, Polygon, MultiPolygon, LineString or MultiLineString")
        }
    }

    /// A point of the area (in longitude/latitude; for an area round a pole, which that plane
    /// cannot hold, the pole), whose first polygon's shell is `shell`.
    private func representative(of geometry: OpaquePointer, shell: [Coordinate]) -> Coordinate {
        if let pole = ShapeReader.enclosedPole(shell) { return pole }
        guard let point = GEOSPointOnSurface_r(context, geometry) else { return Coordinate(latitude: .nan, longitude: .nan) }
        defer { GEOSGeom_destroy_r(context, point) }
        var x = 0.0
        var y = 0.0
        guard GEOSGeomGetX_r(context, point, &x) == 1, GEOSGeomGetY_r(context, point, &y) == 1 else {
            return Coordinate(latitude: .nan, longitude: .nan)
        }
        // Longitudes beyond 180 (a ring written across the antimeridian) back into range, and
        // both rounded to 1e-7 degrees (at most 1.1 cm): GEOS computes the point as a midpoint, so
        // its last digits are noise that the listing would print (-113.51362499999999).
        let longitude = x > 180 ? x - 360 : x < -180 ? x + 360 : x
        return Coordinate(latitude: (y * 1e7).rounded() / 1e7, longitude: (longitude * 1e7).rounded() / 1e7)
    }

    /// A polygon's rings, the shell first, checked and validated.
    private func rings(of polygon: OpaquePointer?) throws(Problem) -> [[Coordinate]] {
        guard let polygon, let shell = GEOSGetExteriorRing_r(context, polygon) else {
            throw Problem(reason: "geometry has an empty polygon")
        }
        var rings = [try positions(of: shell)]
        for n in 0..<GEOSGetNumInteriorRings_r(context, polygon) {
            guard let hole = GEOSGetInteriorRingN_r(context, polygon, n) else { continue }
            rings.append(try positions(of: hole))
        }
        try check(rings)
        return rings
    }

    /// A polygon's rings (the shell first) checked and validated: at least four positions each,
    /// closed, in range, and a valid polygon.
    private func check(_ rings: [[Coordinate]]) throws(Problem) {
        for (n, ring) in rings.enumerated() {
            let name = n == 0 ? "shell" : "hole \(n)"
            guard ring.count >= 4 else { throw Problem(reason: "the polygon's \(name) has \(ring.count) positions, fewer than 4") }
            guard ring.first == ring.last else { throw Problem(reason: "the polygon's \(name) is not closed") }
            try ShapeReader.check(ring)
        }
        try validate(rings)
    }

    private func path(of line: OpaquePointer?) throws(Problem) -> [Coordinate] {
        guard let line else { throw Problem(reason: "geometry has an empty line") }
        let vertices = try positions(of: line)
        try check(path: vertices)
        return vertices
    }

    /// A line's positions checked: at least two, in range.
    private func check(path vertices: [Coordinate]) throws(Problem) {
        guard vertices.count >= 2 else { throw Problem(reason: "a line has \(vertices.count) position, fewer than 2") }
        try ShapeReader.check(vertices)
    }

    private func positions(of geometry: OpaquePointer) throws(Problem) -> [Coordinate] {
        guard let sequence = GEOSGeom_getCoordSeq_r(context, geometry) else { return [] }
        var size: UInt32 = 0
        GEOSCoordSeq_getSize_r(context, sequence, &size)
        var out: [Coordinate] = []
        out.reserveCapacity(Int(size))
        for index in 0..<size {
            var x = 0.0
            var y = 0.0
            GEOSCoordSeq_getXY_r(context, sequence, index, &x, &y)
            out.append(Coordinate(latitude: y, longitude: x))
        }
        return out
    }

    /// Latitudes in [−90, 90], longitudes finite within ±540 (beyond 180 allowed, for a ring
    /// written across the antimeridian).
    private static func check(_ positions: [Coordinate]) throws(Problem) {
        for p in positions {
            guard p.latitude.isFinite, p.longitude.isFinite else { throw Problem(reason: "a position is not a finite number") }
            guard (-90...90).contains(p.latitude) else {
                throw Problem(reason: "latitude \(JSONWriter.number(p.latitude)) is outside [-90, 90]")
            }
            guard (-540...540).contains(p.longitude) else {
                throw Problem(reason: "longitude \(JSONWriter.number(p.longitude)) is outside [-540, 540]")
            }
        }
    }

    // MARK: validity

    /// GEOS's verdict on one polygon, in longitude/latitude or, for a shell that turns round a
    /// pole, in an azimuthal projection about that pole; the place is given in degrees. A
    /// polygon in the plane that `RingSimplicity` proves valid (simple rings, apart, the holes in
    /// the shell and not in each other) is valid without asking.
    private func validate(_ rings: [[Coordinate]]) throws(Problem) {
        let pole = ShapeReader.enclosedPole(rings[0])
        if provesSimpleRings, pole == nil, RingSimplicity.isCertainlyValid(rings) { return }
        let project: (Coordinate) -> (x: Double, y: Double) =
            pole.map { pole in
                { p in
                    let (distance, azimuth) = Geodesic.wgs84.inverse(from: pole, to: p)
                    let radians = azimuth * .pi / 180
                    return (distance * sin(radians), distance * cos(radians))
                }
            } ?? { p in (p.longitude, p.latitude) }
        var geosRings: [OpaquePointer] = []
        for ring in rings {
            guard let sequence = GEOSCoordSeq_create_r(context, UInt32(ring.count), 2) else { continue }
            for (index, p) in ring.enumerated() {
                let (x, y) = project(p)
                GEOSCoordSeq_setXY_r(context, sequence, UInt32(index), x, y)
            }
            lastError.message = ""
            guard let made = GEOSGeom_createLinearRing_r(context, sequence) else {
                for made in geosRings { GEOSGeom_destroy_r(context, made) }
                throw Problem(reason: "invalid geometry: \(failure)")
            }
            geosRings.append(made)
        }
        guard let shell = geosRings.first else { return }
        var holes: [OpaquePointer?] = Array(geosRings.dropFirst())
        let polygon = holes.withUnsafeMutableBufferPointer { buffer in
            GEOSGeom_createPolygon_r(context, shell, buffer.baseAddress, UInt32(buffer.count))
        }
        guard let polygon else { throw Problem(reason: "invalid geometry: \(failure)") }
        defer { GEOSGeom_destroy_r(context, polygon) }
        var reason: UnsafeMutablePointer<CChar>?
        var location: OpaquePointer?
        let verdict = GEOSisValidDetail_r(context, polygon, 0, &reason, &location)
        defer {
            if let reason { GEOSFree_r(context, reason) }
            if let location { GEOSGeom_destroy_r(context, location) }
        }
        guard verdict != 1 else { return }
        let why = reason.map { String(cString: $0) } ?? failure
        var place = ""
        if let location {
            var x = 0.0
            var y = 0.0
            if GEOSGeomGetX_r(context, location, &x) == 1, GEOSGeomGetY_r(context, location, &y) == 1 {
                let at: Coordinate
                if let pole {
                    let distance = (x * x + y * y).squareRoot()
                    at = Geodesic.wgs84.destination(from: pole, azimuth: atan2(x, y) * 180 / .pi, distance: distance)
                } else {
                    at = Coordinate(latitude: y, longitude: x)
                }
                place =
                    " at latitude \(JSONWriter.number((at.latitude * 1e6).rounded() / 1e6)), longitude \(JSONWriter.number((at.longitude * 1e6).rounded() / 1e6))"
            }
        }
        throw Problem(reason: "invalid geometry: \(ShapeReader.shortened(why))\(place)")
    }

    /// GEOS's messages are short; a long one is cut (they may quote the input).
    private static func shortened(_ text: String) -> String {
        text.count <= 200 ? text : String(text.prefix(200)) + "…"
    }

    /// The pole a shell turns round (its longitudes, unwrapped step by step, add up to a whole
    /// turn), nil for one that does not. Whichever way it turns, the pole is the one on the side
    /// of its mean latitude: a ring round a pole bounds the smaller region, the one with that
    /// pole, unless it lies beyond the equator, which no landmark's shell does.
    private static func enclosedPole(_ ring: [Coordinate]) -> Coordinate? {
        var turn = 0.0
        for index in 1..<ring.count {
            var step = ring[index].longitude - ring[index - 1].longitude
            // A step under 180 in size is already reduced (its quotient rounds to 0): no call to
            // the C library's `round` for it (every vertex of every place, twice).
            if abs(step) >= 180 { step -= 360 * (step / 360).rounded() }
            turn += step
        }
        guard abs(turn) > 180 else { return nil }
        let meanLatitude = ring.reduce(0) { $0 + $1.latitude } / Double(ring.count)
        return Coordinate(latitude: meanLatitude >= 0 ? 90 : -90, longitude: 0)
    }
}
