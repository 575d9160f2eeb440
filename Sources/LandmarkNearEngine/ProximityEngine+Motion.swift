@_spi(Inlining) import LandmarkNearCore
@_spi(Inlining) import LandmarkNearGeodesy

/// The motion rules (docs/reference/engine.md, "Motion"): passes between two timed fixes
/// (`--crossing`), dwells (`--dwell`), and the candidates an uncertain fix may reach
/// (`--accuracy-policy possible`).
extension ProximityEngine {
    /// The favourites the device passed between its previous timed fix and this one, at most
    /// `crossingGap` apart, each appended as an `enter` with `via: crossing` (in the order of
    /// their millisecond times, then index) and applied as an enter is.
    ///
    /// Which favourites can have been passed: every point of the geodesic P0→P1 lies within
    /// L/2 of its midpoint (along the geodesic itself), so a favourite within R of one lies
    /// within L/2 + R of the midpoint. When the candidate cache held at both fixes (both within
    /// `slack` of its centre), every point between them does too (a geodesic ball of a radius
    /// this small is convex), so the cached candidates are all that can be passed; otherwise the
    /// grid around the midpoint (for L/2 <= slack) or the index is asked. A favourite is then
    /// skipped by a lower bound before any geodesic: every point X of the segment has
    /// d(X) >= (d0 + d1 − L)/2 by the triangle inequality (d0, d1 bounded below by chords).
    func crossings(to fix: Fix, slot: Int, state: inout DeviceState, cacheHolds: Bool, into events: inout [ProximityEvent]) {
        guard let gap = crossingGap else { return }
        let motion = motions[slot]
        guard let time = fix.time else {
            if explainsMotion { motionNotes.append(.noPassSearched(reason: .untimed)) }
            return
        }
        guard let (start, startTime) = motion.previous else {
            if explainsMotion { motionNotes.append(.noPassSearched(reason: .noPrevious)) }
            return
        }
        let seconds = time.interval(since: startTime)
        guard seconds > 0, seconds <= gap else {
            if explainsMotion { motionNotes.append(.noPassSearched(reason: .gap(seconds: seconds, maximum: gap))) }
            return
        }
        let end = fix.coordinate
        let startPoint = EarthCenteredPoint(start)
        let endPoint = EarthCenteredPoint(end)
        // An upper bound of the geodesic's length from its chord.
        let chord = startPoint.chordSquared(to: endPoint).squareRoot()
        guard chord > 0 else { return }
        let lengthBound = GeodesicBounds.upper(chord: chord) + GeodesicBounds.margin
        var candidates: [Int32] = []
        if cacheHolds {
            for position in 0..<state.entryCount where state[entry: position].isCandidate && !state[entry: position].isInside {
                candidates.append(state[entry: position].favorite)
            }
        } else {
            let middle = Geodesic.wgs84.destination(
                from: start, azimuth: Geodesic.wgs84.inverse(from: start, to: end).azimuth, distance: lengthBound / 2)
            for neighbor in favoriteIndex.within(largestRadius + lengthBound / 2 + 1, of: middle) {
                let favorite = Int32(neighbor.index)
                let position = state.position(of: favorite)
                if position.map({ state[entry: $0].isInside }) == true { continue }
                if let membership = favoriteSets[Int(state.favoriteSet)], !membership[neighbor.index] { continue }
                candidates.append(favorite)
            }
        }
        guard !candidates.isEmpty else { return }
        var found: [(favorite: Int32, approach: SegmentApproach, time: Timestamp)] = []
        var segment: GeodesicSegment?
        for favorite in candidates {
            let index = Int(favorite)
            let radius = favoriteRadii[index]
            let other = favoritePoints[index]
            // Chords bound the distances to the point (a place's cap centre) from below; a place
            // is at most its cap's reach nearer.
            let reach = place(of: index)?.reach ?? 0
            let lower0 = startPoint.chordSquared(to: other).squareRoot() - reach
            let lower1 = endPoint.chordSquared(to: other).squareRoot() - reach
            guard (lower0 + lower1 - lengthBound) / 2 <= radius else { continue }
            // Both fixes must be farther than R: within R at the second, it is the fix's own
            // enter; within R at the first, the device was inside or decided outside by its rules.
            if lower1 <= radius, exactDistance(from: end, to: index) <= radius { continue }
            if lower0 <= radius, exactDistance(from: start, to: index) <= radius { continue }
            if segment == nil { segment = GeodesicSegment(from: start, to: end) }
            let approach: SegmentApproach
            if let shape = place(of: index) {
                let (distance, along) = shape.nearestApproach(along: segment!)
                approach = SegmentApproach(
                    distance: distance, point: segment!.point(atDistance: along), distanceAlong: along,
                    fraction: segment!.length > 0 ? along / segment!.length : 0)
            } else {
                approach = segment!.nearestApproach(to: favoriteCoordinates[index], other)
            }
            guard approach.distance <= radius else {
                if explainsMotion {
                    motionNotes.append(.missed(landmarkIndex: favorites[index], distance: approach.distance, radius: radius))
                }
                continue
            }
            found.append((favorite, approach, Self.interpolated(from: startTime, to: time, fraction: approach.fraction)))
        }
        found.sort { ($0.time, favorites[Int($0.favorite)]) < ($1.time, favorites[Int($1.favorite)]) }
        for pass in found {
            let position = state.positionCreating(pass.favorite)
            state[entry: position].isInside = true
            if tracksChanges, state.markChanged(favorites: true) { changed.append((fix.device, Int32(slot))) }
            var event = ProximityEvent(
                kind: .enter, landmarkIndex: favorites[Int(pass.favorite)], distance: pass.approach.distance,
                suppression: enterSuppression(state: &state, slot: slot, favorite: pass.favorite, time: pass.time))
            event.via = .crossing
            event.point = pass.approach.point
            event.time = pass.time
            events.append(event)
            if explainsMotion {
                motionNotes.append(.passed(landmarkIndex: event.landmarkIndex, distance: event.distance, at: pass.time))
            }
        }
    }

    /// The time at `fraction` of the way from `start` to `end` (uniform speed along the
    /// geodesic), rounded to the millisecond.
    static func interpolated(from start: Timestamp, to end: Timestamp, fraction: Double) -> Timestamp {
        let startMilliseconds = Double(start.seconds) * 1000 + Double(start.nanoseconds) / 1_000_000
        let endMilliseconds = Double(end.seconds) * 1000 + Double(end.nanoseconds) / 1_000_000
        let milliseconds = Int64((startMilliseconds + (endMilliseconds - startMilliseconds) * min(1, max(0, fraction))).rounded())
        let seconds = milliseconds >= 0 ? milliseconds / 1000 : (milliseconds - 999) / 1000
        return Timestamp(seconds: seconds, nanoseconds: Int32(milliseconds - seconds * 1000) * 1_000_000)
    }

    /// After the fix's own events: the dwells it fires (every pending dwell of a favourite the
    /// device is still inside whose enter is at least `dwell` before this fix, in the order of
    /// their distances, then index), and the fix becomes the start of the next pass.
    func motionAfterFix(_ fix: Fix, slot: Int, state: inout DeviceState, firstEvent: Int, into events: inout [ProximityEvent]) {
        if let dwell, !motions[slot].dwells.isEmpty {
            var fired: [Int32] = []
            for pending in motions[slot].dwells {
                guard let position = state.position(of: pending.favorite), state[entry: position].isInside else {
                    fired.append(pending.favorite)  // left meanwhile (a reload forgot it): nothing to fire
                    continue
                }
                let index = Int(pending.favorite)
                guard let time = fix.time, time.interval(since: pending.enteredAt) >= dwell else {
                    if explainsMotion {
                        let due = Timestamp(
                            seconds: pending.enteredAt.seconds + Int64(dwell.rounded(.up)), nanoseconds: pending.enteredAt.nanoseconds)
                        motionNotes.append(.dwellPending(landmarkIndex: favorites[index], due: due))
                    }
                    continue
                }
                fired.append(pending.favorite)
                var event = ProximityEvent(
                    kind: .dwell, landmarkIndex: favorites[index],
                    distance: exactDistance(from: fix.coordinate, to: index),
                    suppression: suppression(state: &state, slot: slot, favorite: pending.favorite, time: time))
                event.enteredAt = pending.enteredAt
                events.append(event)
            }
            if !fired.isEmpty {
                motions[slot].removeDwells { fired.contains($0.favorite) }
                if tracksChanges, state.markChanged(favorites: true) { changed.append((fix.device, Int32(slot))) }
            }
            if events.count - firstEvent > 1 {
                events[firstEvent...].sort { ($0.distance, $0.landmarkIndex) < ($1.distance, $1.landmarkIndex) }
            }
        }
        motions[slot].setPrevious(fix.coordinate, time: fix.time)
    }

    /// With `--accuracy-policy possible`, a fix whose accuracy is more than half the cache's
    /// slack may enter favourites beyond the cached candidates: those within the largest radius
    /// plus its accuracy become candidates too (until the next refresh).
    func addFarCandidates(state: inout DeviceState, around coordinate: Coordinate, accuracy: Double) {
        let membership = favoriteSets[Int(state.favoriteSet)]
        for neighbor in favoriteIndex.within(largestRadius + accuracy, of: coordinate) where membership?[neighbor.index] ?? true {
            let position = state.positionCreating(Int32(neighbor.index))
            state[entry: position].isCandidate = true
        }
    }
}
