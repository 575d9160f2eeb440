import LandmarkNear
@_spi(Inlining) import LandmarkNearGeodesy

/// The catalogs of places (GeoJSON polygons) for `landmark-bench places` and its peers.
///
/// Each polygon is star-shaped around a GeoNames place: vertex i lies at azimuth 360 i / n from
/// the place, at a distance that wanders smoothly between 0.6 and 1.0 of the polygon's size
/// (`Geodesic.destination`), so the ring never crosses itself, and its outline has the bays and
/// capes a park's has. Every 8th polygon has a hole (a 16-vertex star at a quarter of the size,
/// a lake in the park). Sizes are log-uniform in 0.5–10 km.
enum PlaceSetGenerator {
    struct Shape {
        var center: Coordinate
        var size: Double
        var vertices: Int
        var hole: Bool
    }

    /// `count` polygons around distinct random places of `places`, with vertex counts from
    /// `vertexCount`; every `favoriteEvery`th is a favourite. Returns the polygons' centres (the
    /// track simulator starts devices near them) and the number of vertices written.
    @discardableResult
    static func write(
        to path: String, places: [Coordinate], count: Int, seed: UInt64, stream: String, favoriteEvery: Int,
        vertexCount: (inout SeededRandom) -> Int
    ) throws(BenchError) -> (centers: [Coordinate], vertices: Int) {
        var random = SeededRandom(seed: seed, stream: stream)
        // Distinct places: a partial Fisher–Yates shuffle of the indices.
        var order = Array(places.indices)
        let count = min(count, order.count)
        for i in 0..<count { order.swapAt(i, i + random.below(order.count - i)) }
        let out = try ByteWriter(path: path)
        out.write(#"{"type":"FeatureCollection","features":["# + "\n")
        var centers: [Coordinate] = []
        var vertices = 0
        var progress = ProgressLine("places \(DataLayout.short(count))", total: count)
        for row in 0..<count {
            let shape = Shape(
                center: places[order[row]], size: 500 * _exp(random.uniform(0, _log(20))),
                vertices: vertexCount(&random), hole: row % 8 == 7)
            centers.append(shape.center)
            out.write(#"{"type":"Feature","properties":{"id":"#)
            out.write(row + 1)
            out.write(#","name":"Place "#)
            out.write(row + 1)
            out.write(#"","isFavorite":"#)
            out.write(row % favoriteEvery == 0 ? "true" : "false")
            out.write(#"},"geometry":{"type":"Polygon","coordinates":["#)
            writeRing(out, center: shape.center, size: shape.size, vertices: shape.vertices, random: &random)
            vertices += shape.vertices
            if shape.hole {
                out.write(",")
                writeRing(out, center: shape.center, size: shape.size / 4, vertices: 16, random: &random)
                vertices += 16
            }
            out.write(row + 1 < count ? "]}},\n" : "]}}\n")
            if row & 0xFF == 0 { progress.update(row) }
        }
        out.write("]}\n")
        try out.close()
        progress.finish(path + " (\(vertices.grouped) vertices)")
        return (centers, vertices)
    }

    /// One closed ring (the first position repeated), counter-clockwise (GeoJSON's advice for
    /// shells; the reader does not care).
    private static func writeRing(_ out: ByteWriter, center: Coordinate, size: Double, vertices: Int, random: inout SeededRandom) {
        out.write("[")
        var first: Coordinate?
        var wander = random.uniform(0.6, 1.0)
        for i in 0..<vertices {
            wander = min(1.0, max(0.6, wander + 0.05 * random.normal()))
            // Azimuths run clockwise from north; going down them runs counter-clockwise.
            let azimuth = 360 - 360 * Double(i) / Double(vertices)
            let p = Geodesic.wgs84.destination(from: center, azimuth: azimuth, distance: size * wander)
            if first == nil { first = p }
            writePosition(out, p)
            out.write(",")
        }
        writePosition(out, first!)
        out.write("]")
    }

    private static func writePosition(_ out: ByteWriter, _ p: Coordinate) {
        out.write("[")
        out.write(p.longitude, decimals: 6)
        out.write(",")
        out.write(p.latitude, decimals: 6)
        out.write("]")
    }
}
