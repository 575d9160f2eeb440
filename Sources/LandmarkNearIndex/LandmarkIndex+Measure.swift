import CLinux
@_spi(Inlining) import LandmarkNearCore
@_spi(Inlining) import LandmarkNearGeodesy

/// Measuring a landmark from a query point: the short-line formula where the chord is short,
/// `geod_inverse` beyond, refined where the order or a radius is at stake.
extension LandmarkIndex {
    /// A landmark met by a query: its distance and how far that distance may be from
    /// `geod_inverse`'s (0 once it is `geod_inverse`'s).
    struct Candidate {
        var slot: Int32
        var index: Int32
        var distance: Double
        var error: Double
    }

    /// `ShortGeodesic` for a chord up to `ShortGeodesic.longestChord`, `geod_inverse` beyond.
    /// Chords under a micrometre (but not 0) are measured exactly too: two spellings of one
    /// place (a pole at two longitudes) are a nanometre apart in Cartesian rounding, and 0 apart
    /// for `geod_inverse`.
    @inline(__always)
    func measure(
        _ slot: Int, _ p: EarthCenteredPoint, chordSquared: Double,
        from query: EarthCenteredPoint, _ point: Coordinate
    ) -> Candidate {
        let index = slotIndex[slot]
        guard chordSquared <= ShortGeodesic.longestChord * ShortGeodesic.longestChord,
            chordSquared == 0 || chordSquared >= 1e-12
        else {
            return Candidate(
                slot: Int32(slot), index: index,
                distance: Geodesic.wgs84.distance(from: point, to: slotCoordinates[slot]), error: 0)
        }
        let distance = ShortGeodesic.distance(query, p.x - query.x, p.y - query.y, p.z - query.z, chordSquared: chordSquared)
        return Candidate(
            slot: Int32(slot), index: index, distance: distance,
            error: ShortGeodesic.errorBound(chord: chordSquared.squareRoot()))
    }

    /// Measures `candidate` more closely: with the first of `MidpointGeodesic` (lines up to
    /// 2,000 km, 0.2 µm–0.2 mm), `VincentyGeodesic` (1 mm; where its iteration converges) and
    /// `geod_inverse` (exact) whose bound is below the candidate's.
    @inline(__always)
    func refine(_ candidate: inout Candidate, from point: Coordinate, _ query: EarthCenteredPoint) {
        guard candidate.error > 0 else { return }
        let p = slotPoint(Int(candidate.slot))
        let chord = query.chord(to: p)
        if chord <= MidpointGeodesic.longestChord {
            let bound = MidpointGeodesic.errorBound(chord: chord)
            if candidate.error > bound {
                candidate.distance = MidpointGeodesic.distance(from: query, to: p, chord: chord)
                candidate.error = bound
                return
            }
        }
        let landmark = slotCoordinates[Int(candidate.slot)]
        if candidate.error > VincentyGeodesic.errorBound,
            let distance = VincentyGeodesic.distance(from: point, query, to: landmark, p)
        {
            candidate.distance = distance
            candidate.error = VincentyGeodesic.errorBound
            return
        }
        candidate.distance = Geodesic.wgs84.distance(from: point, to: landmark)
        candidate.error = 0
    }

    /// Calls `body` with the slots' points (x, y, z after one another) and their z as `Float`.
    @inline(__always)
    func withSlots<R>(_ body: (UnsafeBufferPointer<Double>, UnsafeBufferPointer<Float>) -> R) -> R {
        body(slotPoints, slotZ)
    }

    @inline(__always) func slotPoint(_ slot: Int) -> EarthCenteredPoint {
        EarthCenteredPoint(x: slotPoints[3 * slot], y: slotPoints[3 * slot + 1], z: slotPoints[3 * slot + 2])
    }

    @inline(__always) func slots(ofBucket bucket: Int) -> Range<Int> {
        let start = bucket * LandmarkIndex.bucketSize
        return start..<min(count, start + LandmarkIndex.bucketSize)
    }
}
