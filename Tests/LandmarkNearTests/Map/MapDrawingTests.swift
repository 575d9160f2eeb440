import Foundation
import Testing

@_spi(Inlining) @testable import LandmarkNearCore
@testable import LandmarkNearEngine
@testable import LandmarkNearOutputs
@testable import LandmarkNearServer

/// Tracks split at ±180° and at gaps, thinned within a tolerance keeping every event's fix.
@Suite(.suiteTimeLimit) struct MapDrawingTests {
    private func c(_ lat: Double, _ lon: Double) -> Coordinate { Coordinate(latitude: lat, longitude: lon) }

    @Test func aLineAcrossTheAntimeridianIsCutWhereItCrosses() {
        let parts = AntimeridianSplit.lines([c(0, 179), c(2, -179), c(3, -178)])
        #expect(parts == [[c(0, 179), c(1, 180)], [c(1, -180), c(2, -179), c(3, -178)]])
        let westward = AntimeridianSplit.lines([c(10, -179.5), c(11, 179.5)])
        #expect(westward == [[c(10, -179.5), c(10.5, -180)], [c(10.5, 180), c(11, 179.5)]])
    }

    @Test func aLineThatDoesNotCrossStaysWhole() {
        #expect(AntimeridianSplit.lines([c(0, -10), c(1, 10), c(2, 179.9)]).count == 1)
        #expect(AntimeridianSplit.lines([c(0, 180), c(1, 179)]) == [[c(0, 180), c(1, 179)]])
        #expect(AntimeridianSplit.lines([c(0, 1)]) == [])
    }

    @Test func aPositionOnTheMeridianDoesNotMakeAOnePointPart() {
        let parts = AntimeridianSplit.lines([c(0, 180), c(0, -179), c(0, -178)])
        #expect(parts == [[c(0, -180), c(0, -179), c(0, -178)]])
    }

    /// A wandering track of `count` fixes, some of them causing events.
    private func recorder(fixes count: Int, devices: Int) -> RunRecorder {
        let recorder = RunRecorder()
        var rng = IndexTestSupport.SeededGenerator(seed: 14)
        for d in 0..<devices {
            var lat = 34.0 + Double(d) * 0.1
            var lon = -116.2
            var heading = 0.0
            for i in 0..<(count / devices) {
                heading += Double.random(in: -0.3...0.3, using: &rng)
                lat += cos(heading) * 0.0002
                lon += sin(heading) * 0.0002
                let fix = Fix(device: "car \(d)", coordinate: c(lat, lon), time: Timestamp(seconds: 1_777_636_800 + Int64(i)))
                let events = i % 997 == 500 ? [ProximityEvent(kind: .enter, landmarkIndex: 0, distance: 10)] : []
                recorder.record(fix, .used, events)
            }
        }
        return recorder
    }

    @Test func largeRunsAreThinnedWithinTheToleranceKeepingEveryEventFix() throws {
        let recorder = recorder(fixes: 100_000, devices: 4)
        let drawing = MapDrawing(
            recorder: recorder, catalog: .embedded, favoriteIndices: [0], radius: { _ in 8046.72 },
            pointBudget: 20_000)
        let tolerance = try #require(drawing.thinningTolerance)
        #expect(drawing.fixCount == 100_000)
        #expect(drawing.drawnPointCount <= 20_000 && drawing.drawnPointCount > 1_000)
        for event in recorder.events {
            #expect(drawing.tracks[event.device].points.contains(event.coordinate))
        }
        // Every dropped fix lies within the tolerance of the thinned line between its neighbours.
        for (d, track) in recorder.tracks.enumerated() {
            let kept = drawing.tracks[d].points
            #expect(kept.first == track.first?.coordinate && kept.last == track.last?.coordinate)
            var k = 0
            for point in track.map(\.coordinate).prefix(5_000) {
                if point == kept[k + 1] { k += 1; continue }
                if point == kept[k] { continue }
                #expect(TrackThinning.offset(of: point, from: kept[k], to: kept[k + 1]) <= tolerance + 1e-9)
            }
        }
    }

    @Test func aParkedDeviceIsThinnedToItsEndsAtOnce() {
        let recorder = RunRecorder()
        for i in 0..<200_000 {
            recorder.record(Fix(device: "parked", coordinate: c(34, -116), time: Timestamp(seconds: Int64(i))), .used, [])
        }
        let drawing = MapDrawing(recorder: recorder, catalog: .embedded, favoriteIndices: [], radius: { _ in 1 })
        #expect(drawing.tracks[0].points.count == 2)
        #expect(drawing.thinningTolerance == TrackThinning.ladder[0])
    }

    @Test func smallRunsAreDrawnWhole() {
        let recorder = recorder(fixes: 5_000, devices: 2)
        let drawing = MapDrawing(recorder: recorder, catalog: .embedded, favoriteIndices: [0, 2, 3], radius: { _ in 8046.72 })
        #expect(drawing.thinningTolerance == nil)
        #expect(drawing.drawnPointCount == 5_000)
        #expect(drawing.favorites.map(\.landmark.id) == [1001, 1003, 1004])
    }

    @Test func aTrackIsCutAtAGapOfMoreThanHalfAnHour() {
        let recorder = RunRecorder()
        for (i, seconds) in [0, 60, 120, 120 + 1_801, 120 + 1_861].enumerated() {
            recorder.record(
                Fix(device: "d", coordinate: c(34, -116 + Double(i) * 0.01), time: Timestamp(seconds: Int64(seconds))), .used, [])
        }
        recorder.record(Fix(device: "d", coordinate: c(0, 0)), .dropped(.stale), [])
        let drawing = MapDrawing(recorder: recorder, catalog: .embedded, favoriteIndices: [], radius: { _ in 1 })
        #expect(drawing.tracks[0].parts.map(\.count) == [3, 2])
        #expect(drawing.fixCount == 5)
    }

    @Test func withManyFavouritesOnlyThoseWithAnEventAreDrawn() {
        let recorder = RunRecorder()
        recorder.record(Fix(device: "d", coordinate: c(34, -116)), .used, [ProximityEvent(kind: .enter, landmarkIndex: 3, distance: 5)])
        let drawing = MapDrawing(
            recorder: recorder, catalog: .embedded, favoriteIndices: Array(0..<12), radius: { _ in 1_000 },
            favoriteLimit: 5)
        #expect(drawing.favorites.map(\.landmarkIndex) == [3])
        #expect(drawing.omittedFavorites == 11)
    }

    @Test func thePageDataCannotCloseItsScriptElement() {
        let hostile = "</script><script>alert(1)</script><!-- & \u{2028}"
        let text = MapPage.embeddable(JSONWriter.quoted(hostile))
        #expect(!text.contains("<") && !text.contains(">") && !text.contains("&"))
        #expect((try? JSONParser.parse(text))?.stringValue == hostile)
    }
}
