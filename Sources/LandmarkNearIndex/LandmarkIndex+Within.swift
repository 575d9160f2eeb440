import CLinux
@_spi(Inlining) import LandmarkNearCore
@_spi(Inlining) import LandmarkNearGeodesy

/// `within`: every landmark within a radius, exactly.
extension LandmarkIndex {
    /// Every landmark whose geodesic distance from `point` is <= `radius` metres, sorted by
    /// (distance, index). Empty for an invalid point or a negative or NaN radius.
    public func within(_ radius: Double, of point: Coordinate) -> [LandmarkNeighbor] {
        guard count > 0, radius >= 0, point.isValid else { return [] }
        let (query, latitudeSine, latitudeCosine) = EarthCenteredPoint.withLatitudeTrigonometry(point)
        let cover = CapCover(center: point, radius: radius, latitudeSine: latitudeSine, latitudeCosine: latitudeCosine)
        // Answers go to a stack buffer of 40 (measured: a malloc'd array costs a tenth of a
        // search; see Benchmarks/LOG.md), and only beyond it to an array.
        return withUnsafeTemporaryAllocation(of: Candidate.self, capacity: 40) { room in
            var kept = 0
            var spilled: [Candidate] = []
            scanWithin(radius, of: point, query, cover) { candidate in
                if kept < room.count {
                    room.initializeElement(at: kept, to: candidate)
                    kept += 1
                } else {
                    spilled.append(candidate)
                }
            }
            guard spilled.isEmpty else {
                var all = Array(room[0..<kept]) + spilled
                return answers(&all, from: point, query, limit: all.count)
            }
            return answers(in: UnsafeMutableBufferPointer(rebasing: room[0..<kept]), from: point, query, limit: kept)
        }
    }

    /// Calls `keep` with every landmark within `radius` of `point` (exactly), measured; `cover`:
    /// the cap's.
    @inline(__always)
    func scanWithin(
        _ radius: Double, of point: Coordinate, _ query: EarthCenteredPoint, _ cover: CapCover,
        _ keep: (Candidate) -> Void
    ) {
        let chordLimit = radius + GeodesicBounds.margin
        let limitSquared = chordLimit * chordLimit
        withBuckets(meeting: cover) { buckets in
            withUnsafeTemporaryAllocation(of: (Int, Int).self, capacity: max(1, buckets.count)) { runs in
                withSlots { points, zs in
                    // First every bucket that can hold an answer (its sphere comes within the
                    // radius), then where its run near the query starts, then the runs: each
                    // step asks for the memory of all the buckets before reading any.
                    let n = nearRuns(of: buckets, within: chordLimit, from: query, zs, points, into: runs.baseAddress.unsafelyUnwrapped)
                    for (start, end) in runs[0..<n] {
                        for slot in start..<end {
                            let p = EarthCenteredPoint(
                                x: points[3 &* slot], y: points[3 &* slot &+ 1], z: points[3 &* slot &+ 2])
                            if p.z - query.z > chordLimit { break }
                            let chordSquared = query.chordSquared(to: p)
                            guard chordSquared <= limitSquared else { continue }
                            var candidate = measure(slot, p, chordSquared: chordSquared, from: query, point)
                            // Only a distance within its error bound of the radius needs refining.
                            if isWithin(&candidate, radius, from: point, query) { keep(candidate) }
                        }
                    }
                }
            }
        }
    }

    /// Whether `candidate`'s exact distance is <= `radius`, refining it while its interval
    /// holds the radius (at the end `geod_inverse` decides).
    @inline(__always)
    func isWithin(
        _ candidate: inout Candidate, _ radius: Double, from point: Coordinate, _ query: EarthCenteredPoint
    ) -> Bool {
        while true {
            if candidate.distance + candidate.error <= radius { return true }
            if candidate.distance - candidate.error > radius { return false }
            refine(&candidate, from: point, query)
        }
    }
}
