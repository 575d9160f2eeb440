import CGEOS

/// GEOS (its reentrant C API) for the map's planar work: buffers of a place in its azimuthal
/// plane (`PlaceOutline`), and the cutting of rings at ±180° in longitude/latitude
/// (`GlobePolygons`). Positions are `SIMD2<Double>` (x, y); rings are closed (first == last).
///
/// Each `Geometry` owns its GEOS geometry and frees it when released; one context per instance,
/// used by one thread (a drawing is made on the thread that asks for it).
///
///     let geos = PlaneGEOS()
///     let line = geos.lineString([SIMD2(0, 0), SIMD2(100, 0)])!
///     let band = geos.buffer(line, by: 10, quadrantSegments: 8)!   // a stadium 120 m by 20 m
///     geos.polygons(of: band)                 // [[its ring]]
final class PlaneGEOS {
    final class Geometry {
        fileprivate let pointer: OpaquePointer
        private let owner: PlaneGEOS

        fileprivate init(_ pointer: OpaquePointer, _ owner: PlaneGEOS) {
            self.pointer = pointer
            self.owner = owner
        }

        deinit { GEOSGeom_destroy_r(owner.context, pointer) }
    }

    fileprivate let context: OpaquePointer

    init() {
        guard let context = GEOS_init_r() else { fatalError("GEOS: cannot create a context (out of memory)") }
        self.context = context
    }

    deinit { GEOS_finish_r(context) }

    private func wrap(_ pointer: OpaquePointer?) -> Geometry? { pointer.map { Geometry($0, self) } }

    private func sequence(_ points: [SIMD2<Double>]) -> OpaquePointer? {
        // SIMD2<Double> is two doubles, 16 bytes: the array is GEOS's x, y buffer as it is.
        points.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: Double.self) { doubles in
                GEOSCoordSeq_copyFromBuffer_r(context, doubles.baseAddress, UInt32(points.count), 0, 0)
            }
        }
    }

    private func points(of sequence: OpaquePointer?) -> [SIMD2<Double>] {
        guard let sequence else { return [] }
        var size: UInt32 = 0
        GEOSCoordSeq_getSize_r(context, sequence, &size)
        var out = [SIMD2<Double>](repeating: .zero, count: Int(size))
        out.withUnsafeMutableBufferPointer { buffer in
            buffer.withMemoryRebound(to: Double.self) { doubles in
                _ = GEOSCoordSeq_copyToBuffer_r(context, sequence, doubles.baseAddress, 0, 0)
            }
        }
        return out
    }

    /// A polygon from its rings, the shell first; nil for a ring of fewer than 4 positions or
    /// not closed.
    func polygon(_ rings: [[SIMD2<Double>]]) -> Geometry? {
        guard let first = rings.first, first.count >= 4 else { return nil }
        var made: [OpaquePointer] = []
        for ring in rings where ring.count >= 4 && ring.first == ring.last {
            guard let ring = GEOSGeom_createLinearRing_r(context, sequence(ring)) else { continue }
            made.append(ring)
        }
        guard first.first == first.last, let shell = made.first else {
            for ring in made { GEOSGeom_destroy_r(context, ring) }
            return nil
        }
        var holes: [OpaquePointer?] = Array(made.dropFirst())
        return wrap(
            holes.withUnsafeMutableBufferPointer { buffer in
                GEOSGeom_createPolygon_r(context, shell, buffer.baseAddress, UInt32(buffer.count))
            })
    }

    func lineString(_ points: [SIMD2<Double>]) -> Geometry? {
        guard points.count >= 2 else { return nil }
        return wrap(GEOSGeom_createLineString_r(context, sequence(points)))
    }

    func rectangle(x: ClosedRange<Double>, y: ClosedRange<Double>) -> Geometry {
        guard let box = wrap(GEOSGeom_createRectangle_r(context, x.lowerBound, y.lowerBound, x.upperBound, y.upperBound)) else {
            fatalError("GEOS: cannot create a rectangle (out of memory)")
        }
        return box
    }

    /// The members (copied) as one collection; nil when there is none.
    func collection(_ members: [Geometry]) -> Geometry? {
        guard !members.isEmpty else { return nil }
        var copies: [OpaquePointer?] = members.map { GEOSGeom_clone_r(context, $0.pointer) }
        return wrap(
            copies.withUnsafeMutableBufferPointer { buffer in
                GEOSGeom_createCollection_r(context, Int32(GEOS_GEOMETRYCOLLECTION.rawValue), buffer.baseAddress, UInt32(buffer.count))
            })
    }

    /// Every point within `width` of the geometry, with round joins and caps; each quarter turn
    /// of a round part is `quadrantSegments` straight edges.
    func buffer(_ g: Geometry, by width: Double, quadrantSegments: Int32) -> Geometry? {
        wrap(
            GEOSBufferWithStyle_r(
                context, g.pointer, width, quadrantSegments, Int32(GEOSBUF_CAP_ROUND.rawValue), Int32(GEOSBUF_JOIN_ROUND.rawValue), 5))
    }

    func intersection(_ a: Geometry, _ b: Geometry) -> Geometry? { wrap(GEOSIntersection_r(context, a.pointer, b.pointer)) }
    func difference(_ a: Geometry, _ b: Geometry) -> Geometry? { wrap(GEOSDifference_r(context, a.pointer, b.pointer)) }
    func union(_ g: Geometry) -> Geometry? { wrap(GEOSUnaryUnion_r(context, g.pointer)) }

    func isValid(_ g: Geometry) -> Bool { GEOSisValid_r(context, g.pointer) == 1 }

    /// The geometry itself when GEOS finds it valid, else GEOS's repair of it (a ring that
    /// touches or crosses itself becomes the polygons it encloses).
    func valid(_ g: Geometry) -> Geometry? {
        isValid(g) ? g : wrap(GEOSMakeValid_r(context, g.pointer))
    }

    /// The polygons in a geometry (a Polygon, a MultiPolygon or a collection holding them), each
    /// as its rings, the shell first; lines and points in it are left out.
    func polygons(of g: Geometry) -> [[[SIMD2<Double>]]] {
        var out: [[[SIMD2<Double>]]] = []
        func visit(_ pointer: OpaquePointer) {
            switch Int32(GEOSGeomTypeId_r(context, pointer)) {
            case Int32(GEOS_POLYGON.rawValue):
                guard GEOSisEmpty_r(context, pointer) == 0, let shell = GEOSGetExteriorRing_r(context, pointer) else { return }
                var rings = [points(of: GEOSGeom_getCoordSeq_r(context, shell))]
                for n in 0..<max(0, GEOSGetNumInteriorRings_r(context, pointer)) {
                    guard let hole = GEOSGetInteriorRingN_r(context, pointer, n) else { continue }
                    rings.append(points(of: GEOSGeom_getCoordSeq_r(context, hole)))
                }
                out.append(rings)
            case Int32(GEOS_MULTIPOLYGON.rawValue), Int32(GEOS_GEOMETRYCOLLECTION.rawValue):
                for n in 0..<max(0, GEOSGetNumGeometries_r(context, pointer)) {
                    if let member = GEOSGetGeometryN_r(context, pointer, n) { visit(member) }
                }
            default: return
            }
        }
        visit(g.pointer)
        return out
    }
}
