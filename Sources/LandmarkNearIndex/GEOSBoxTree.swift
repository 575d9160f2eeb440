import CGEOS
@_spi(Inlining) import LandmarkNearGeodesy

/// GEOS's STRtree (through the reentrant C API) over integer-numbered boxes in degrees.
///
/// The class owns the GEOS context and the tree. Items are the box numbers themselves, cast to
/// pointers (number + 1, so none is null); the boxes' geometries are freed as soon as they are
/// inserted, since the tree copies their envelopes. The tree is built eagerly in `init` (GEOS
/// would otherwise build it on the first query), so queries only read it.
///
///     let tree = GEOSBoxTree(boxes: [GeoBox(minLongitude: 0, minLatitude: 0, maxLongitude: 1, maxLatitude: 1)])
///     var hits: [Int32] = []
///     tree.query(GeoBox(minLongitude: 0.5, minLatitude: 0.5, maxLongitude: 2, maxLatitude: 2), into: &hits)
///     hits   // [0]
final class GEOSBoxTree {
    private let context: OpaquePointer
    private let tree: OpaquePointer
    let count: Int
    let nodeCapacity: Int

    /// - Parameter nodeCapacity: children per tree node.
    init(boxes: [GeoBox], nodeCapacity: Int = 10) {
        guard let context = GEOS_init_r() else { fatalError("GEOS: cannot create a context (out of memory)") }
        guard let tree = GEOSSTRtree_create_r(context, nodeCapacity) else {
            fatalError("GEOS: cannot create an STRtree (out of memory)")
        }
        self.context = context
        self.tree = tree
        self.count = boxes.count
        self.nodeCapacity = nodeCapacity
        precondition(boxes.count < Int(Int32.max), "GEOSBoxTree: too many boxes")
        for (number, box) in boxes.enumerated() {
            let geometry = GEOSBoxTree.lineGeometry(context, box)
            GEOSSTRtree_insert_r(context, tree, geometry, UnsafeMutableRawPointer(bitPattern: number + 1))
            GEOSGeom_destroy_r(context, geometry)
        }
        if !boxes.isEmpty {
            // Build now: the first query builds the tree, and a query must not write.
            var ignored: [Int32] = []
            query(boxes[0], into: &ignored)
        }
    }

    deinit {
        GEOSSTRtree_destroy_r(context, tree)
        GEOS_finish_r(context)
    }

    /// Appends the numbers of the boxes that intersect `box` (edges included), in tree order.
    func query(_ box: GeoBox, into hits: inout [Int32]) {
        guard count > 0 else { return }
        let geometry = GEOSBoxTree.lineGeometry(context, box)
        defer { GEOSGeom_destroy_r(context, geometry) }
        withUnsafeMutablePointer(to: &hits) { hitsPointer in
            GEOSSTRtree_query_r(
                context, tree, geometry,
                { item, userdata in
                    let hits = userdata.unsafelyUnwrapped.assumingMemoryBound(to: [Int32].self)
                    hits.pointee.append(Int32(truncatingIfNeeded: Int(bitPattern: item) - 1))
                }, hitsPointer)
        }
    }

    /// A two-point line string whose envelope is `box`: the cheapest geometry GEOS builds with
    /// that envelope (a rectangle polygon costs a ring and a shell more).
    private static func lineGeometry(_ context: OpaquePointer, _ box: GeoBox) -> OpaquePointer {
        guard let sequence = GEOSCoordSeq_create_r(context, 2, 2) else { fatalError("GEOS: out of memory") }
        GEOSCoordSeq_setXY_r(context, sequence, 0, box.minLongitude, box.minLatitude)
        GEOSCoordSeq_setXY_r(context, sequence, 1, box.maxLongitude, box.maxLatitude)
        guard let line = GEOSGeom_createLineString_r(context, sequence) else { fatalError("GEOS: out of memory") }
        return line
    }
}
