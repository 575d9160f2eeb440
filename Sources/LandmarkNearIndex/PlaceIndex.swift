@_spi(Inlining) import LandmarkNearCore
@_spi(Inlining) import LandmarkNearGeodesy

/// The nearest landmarks of a catalog that has places (areas and lines) among its points:
/// `LandmarkIndex` over the points, and GEOS's STRtree over the places' cap boxes, searched in
/// growing circles with exact distances (0 inside an area, else to the nearest edge).
///
/// Why a circle of radius r finds every place within r: a place at distance d <= r from the
/// query has a point P within r of it, so P lies in the query's cap box (`CapCover`); P also lies
/// in the place's cap (every point of a place, its geodesic edges and an area's inside, is within
/// `reach` of `center`: `GeodesicShape`), hence in that cap's box; the two boxes meet, and the
/// tree hands the place over. A place the tree does not hand over is therefore farther than r.
/// The circle doubles from 1 km until it holds `limit` places, or reaches the farthest the answer
/// can be (the `limit`-th point's distance, the cut-off, or half the globe), so the places kept
/// are exactly the nearest.
///
///     let index = PlaceIndex(catalog: parks)          // nil when the catalog has no places
///     index?.nearest(to: fix, limit: 3, within: 8046.72)
public final class PlaceIndex {
    /// The points, and each one's catalog index.
    let points: LandmarkIndex
    let pointLandmarks: [Int32]
    /// The places ready for distances, and each one's catalog index.
    let places: [GeodesicShape]
    let placeLandmarks: [Int32]
    /// Over the places' cap boxes (one or two each: `CapCover` splits at ±180°); a box's number
    /// is `boxOwners`' index, its place the value.
    let tree: GEOSBoxTree
    let boxOwners: [Int32]

    /// The first circle searched (metres): small enough that a query among parks measures few
    /// of them, while doubling reaches the far side of the globe in 15 steps.
    static let firstRadius = 1_000.0
    /// At least the longest geodesic on WGS84 (20,003,931 m between antipodes at the poles): a
    /// circle this large holds the whole globe.
    static let wholeGlobe = 20_010_000.0

    /// nil when no landmark of `catalog` is a place (`LandmarkIndex` alone answers then). A
    /// shape that is not a place (a ring that is not a ring: the catalog readers refuse those
    /// first) is measured at its landmark's point.
    public init?(catalog: LandmarkCatalog) {
        guard catalog.hasShapes else { return nil }
        var pointCoordinates: [Coordinate] = []
        var pointLandmarks: [Int32] = []
        var places: [GeodesicShape] = []
        var placeLandmarks: [Int32] = []
        var boxes: [GeoBox] = []
        var boxOwners: [Int32] = []
        for landmark in 0..<catalog.count {
            guard let shape = catalog.shape(at: landmark), let place = GeodesicShape(shape) else {
                pointCoordinates.append(catalog.coordinate(at: landmark))
                pointLandmarks.append(Int32(landmark))
                continue
            }
            let cover = CapCover(center: place.center, radius: place.reach)
            for box in cover.boxes {
                boxes.append(box)
                boxOwners.append(Int32(places.count))
            }
            places.append(place)
            placeLandmarks.append(Int32(landmark))
        }
        guard !places.isEmpty else { return nil }
        self.points = LandmarkIndex(coordinates: pointCoordinates)
        self.pointLandmarks = pointLandmarks
        self.places = places
        self.placeLandmarks = placeLandmarks
        self.tree = GEOSBoxTree(boxes: boxes)
        self.boxOwners = boxOwners
    }

    /// The number of landmarks, points and places.
    public var count: Int { pointLandmarks.count + placeLandmarks.count }

    /// The `limit` landmarks nearest to `point` at most `cutoff` metres away, sorted by
    /// (distance, catalog index), as `LandmarkIndex.nearest(to:limit:within:)` answers.
    public func nearest(to point: Coordinate, limit: Int, within cutoff: Double = .infinity) -> [LandmarkNeighbor] {
        guard limit > 0, point.isValid, cutoff >= 0 else { return [] }
        var answers = points.nearest(to: point, limit: limit, within: cutoff).map {
            LandmarkNeighbor(index: Int(pointLandmarks[$0.index]), distance: $0.distance)
        }
        // No place farther than this can be among the answers: the cut-off, or the limit-th
        // point (a place at that very distance can still come first by its index).
        let farthest = answers.count == limit ? min(cutoff, answers[limit - 1].distance) : cutoff
        var measured: [Int32: Double] = [:]
        var hits: [Int32] = []
        var radius = min(Self.firstRadius, farthest)
        while true {
            hits.removeAll(keepingCapacity: true)
            let cover = CapCover(center: point, radius: radius)
            for box in cover.boxes { tree.query(box, into: &hits) }
            for box in hits {
                let place = boxOwners[Int(box)]
                if measured[place] == nil { measured[place] = places[Int(place)].distance(from: point) }
            }
            // Every place within `radius` has been measured (see above); enough of them, or
            // a circle as large as the answer can reach, ends the search.
            if radius >= farthest || radius >= Self.wholeGlobe { break }
            if measured.values.lazy.filter({ $0 <= radius }).count >= limit { break }
            radius = min(radius * 2, farthest, Self.wholeGlobe)
        }
        for (place, distance) in measured where distance <= radius && distance <= cutoff {
            answers.append(LandmarkNeighbor(index: Int(placeLandmarks[Int(place)]), distance: distance))
        }
        answers.sort { ($0.distance, $0.index) < ($1.distance, $1.index) }
        if answers.count > limit { answers.removeLast(answers.count - limit) }
        return answers
    }
}

/// What answers `nearest`: `LandmarkIndex` over a catalog of points, `PlaceIndex` where some
/// landmarks are places. One switch a query; each index keeps its own search.
///
///     let search = NearestSearch(catalog: catalog)
///     search.nearest(to: here, limit: 3, within: .infinity)
public enum NearestSearch {
    case points(LandmarkIndex)
    case places(PlaceIndex)

    public init(catalog: LandmarkCatalog) {
        if let places = PlaceIndex(catalog: catalog) {
            self = .places(places)
        } else {
            self = .points(LandmarkIndex(catalog: catalog))
        }
    }

    /// The `limit` nearest landmarks at most `cutoff` metres away, by (distance, index).
    public func nearest(to point: Coordinate, limit: Int, within cutoff: Double = .infinity) -> [LandmarkNeighbor] {
        switch self {
        case .points(let index): index.nearest(to: point, limit: limit, within: cutoff)
        case .places(let index): index.nearest(to: point, limit: limit, within: cutoff)
        }
    }
}
