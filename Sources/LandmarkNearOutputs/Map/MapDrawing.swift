@_spi(Inlining) import LandmarkNearCore
import LandmarkNearEngine

/// A recorded run made ready to draw: tracks thinned to a point budget (keeping every fix that
/// caused an event), the favourites with their geodesic circles (or, for a place, the place and
/// its radius outline), and every event with its landmark. Both the GeoJSON and the HTML page
/// are written from it.
///
///     let drawing = MapDrawing(recorder: recorder, catalog: .embedded,
///                              favoriteIndices: session.favoriteIndices,
///                              radius: { _ in options.engine.radius })
package struct MapDrawing: Sendable {
    package struct Track: Sendable {
        package var device: String
        /// Used fixes of the device.
        package var fixCount: Int
        /// The points drawn (all of them unless thinned).
        package var points: [Coordinate]
        /// Indices into `points` where a new part starts: the fix came more than `gap` after
        /// the one before (two drives on two days are two lines, not one).
        package var breaks: [Int] = []

        /// The drawn points cut at the breaks.
        package var parts: [[Coordinate]] {
            var result: [[Coordinate]] = []
            var start = 0
            for end in breaks + [points.count] where end > start {
                result.append(Array(points[start..<end]))
                start = end
            }
            return result
        }
    }

    package struct Favorite: Sendable {
        package var landmarkIndex: Int
        package var landmark: Landmark
        package var radius: Double
        /// A point landmark's radius circle; nil for a place.
        package var circle: GeodesicCircle?
        /// A place and its radius outline; nil for a point.
        package var place: PlaceDrawing?
    }

    package struct Event: Sendable {
        package var kind: ProximityEvent.Kind
        package var device: Int
        package var landmarkIndex: Int
        package var landmark: Landmark
        package var coordinate: Coordinate
        package var time: Timestamp?
        package var distance: Double
        package var notified: Bool
        package var suppression: ProximityEvent.Suppression?
        /// `crossing` for an enter found between two fixes (drawn where the pass came nearest).
        package var via: ProximityEvent.Via?
        /// For a `dwell`: when the device entered.
        package var enteredAt: Timestamp?
    }

    package var tracks: [Track] = []
    package var favorites: [Favorite] = []
    package var events: [Event] = []
    /// The Douglas–Peucker tolerance in metres when tracks were thinned, nil when not.
    package var thinningTolerance: Double?
    /// Favourites left out of the drawing (more than `favoriteLimit`, and without an event).
    package var omittedFavorites = 0

    package var fixCount: Int { tracks.reduce(0) { $0 + $1.fixCount } }
    package var drawnPointCount: Int { tracks.reduce(0) { $0 + $1.points.count } }

    /// - Parameters:
    ///   - radius: the enter radius of a landmark (by catalog index), in metres.
    ///   - pointBudget: tracks with more used fixes in all are thinned to about this many points.
    ///   - favoriteLimit: with more favourites than this, only those with an event are drawn.
    ///   - gap: a track is cut where consecutive timed fixes are more than this apart, in seconds.
    package init(
        recorder: RunRecorder, catalog: LandmarkCatalog, favoriteIndices: [Int],
        radius: (Int) -> Double, pointBudget: Int = 60_000, favoriteLimit: Int = 500, gap: Double = 1_800
    ) {
        var kept = [Set<Int>](repeating: [], count: recorder.devices.count)
        for event in recorder.events { kept[event.device].insert(event.trackIndex) }
        var gapStarts = [[Int]](repeating: [], count: recorder.devices.count)
        for (device, track) in recorder.tracks.enumerated() where track.count > 1 {
            for i in 1..<track.count {
                guard let before = track[i - 1].time, let after = track[i].time, after.interval(since: before) > gap else { continue }
                gapStarts[device].append(i)
                kept[device].insert(i - 1)
                kept[device].insert(i)
            }
        }
        let coordinates = recorder.tracks.map { $0.map(\.coordinate) }
        var tolerance: Double?
        var significances: [[Double]] = []
        if recorder.fixCount > pointBudget {
            significances = coordinates.indices.map { TrackThinning.significance(of: coordinates[$0], keeping: kept[$0]) }
            tolerance = TrackThinning.tolerance(for: significances, budget: pointBudget)
        }
        thinningTolerance = tolerance
        for (i, device) in recorder.devices.enumerated() {
            var points = coordinates[i]
            var breaks = gapStarts[i]
            if let tolerance {
                let drawn = points.indices.filter { significances[i][$0] > tolerance }
                var position: [Int: Int] = [:]
                for (n, original) in drawn.enumerated() { position[original] = n }
                breaks = breaks.compactMap { position[$0] }
                points = drawn.map { points[$0] }
            }
            tracks.append(Track(device: device, fixCount: coordinates[i].count, points: points, breaks: breaks))
        }

        var withEvents = Set<Int>()
        for event in recorder.events {
            let landmark = catalog[event.event.landmarkIndex]
            withEvents.insert(event.event.landmarkIndex)
            events.append(
                Event(
                    kind: event.event.kind, device: event.device, landmarkIndex: event.event.landmarkIndex,
                    landmark: landmark, coordinate: event.coordinate, time: event.time,
                    distance: event.event.distance, notified: event.event.isNotification,
                    suppression: event.event.suppression, via: event.event.via, enteredAt: event.event.enteredAt))
        }
        var drawn = favoriteIndices
        if favoriteIndices.count > favoriteLimit {
            drawn = favoriteIndices.filter(withEvents.contains)
            omittedFavorites = favoriteIndices.count - drawn.count
        }
        // GEOS only when a place is drawn (its buffers and cuts).
        var geos: PlaneGEOS?
        favorites = drawn.map { index in
            let landmark = catalog[index]
            let metres = radius(index)
            // A shape that cannot be measured (catalogs refuse them) is drawn as its point.
            if let shape = catalog.shape(at: index) {
                let context = geos ?? PlaneGEOS()
                geos = context
                if let place = PlaceDrawing(shape, radius: metres, geos: context) {
                    return Favorite(landmarkIndex: index, landmark: landmark, radius: metres, circle: nil, place: place)
                }
            }
            return Favorite(
                landmarkIndex: index, landmark: landmark, radius: metres,
                circle: GeodesicCircle(center: landmark.coordinate, radius: metres), place: nil)
        }
    }
}
