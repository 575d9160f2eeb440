import CLinux
@_spi(Inlining) import LandmarkNearCore
@_spi(Inlining) import LandmarkNearGeodesy

/// Finding the buckets a query must look at: the directory's cells, GEOS's tree for wide caps,
/// the hierarchy walked nearest first; and sweeping a bucket's slots near the query's z.
extension LandmarkIndex {
    /// Calls `body` with the buckets that meet `cover`'s boxes, each once: from the directory
    /// when the cover spans few cells, else from the coarse directory when it spans few of its
    /// cells and their lists are short, else from GEOS's tree.
    @inline(__always)
    func withBuckets<R>(meeting cover: CapCover, _ body: (UnsafeBufferPointer<Int32>) -> R) -> R {
        let spans = (directory.span(of: cover.first), cover.second.map { directory.span(of: $0) })
        guard spans.0.cellCount + (spans.1?.cellCount ?? 0) <= LandmarkIndex.directoryCellLimit else {
            return withBuckets(meetingLarge: cover, body)
        }
        let room = directory.entryCount(of: spans.0) + (spans.1.map { directory.entryCount(of: $0) } ?? 0)
        return withBuckets(meeting: cover, spans, from: directory, room: room, body)
    }

    /// `withBuckets` for a cover of more than `directoryCellLimit` cells.
    @inline(never)
    func withBuckets<R>(meetingLarge cover: CapCover, _ body: (UnsafeBufferPointer<Int32>) -> R) -> R {
        let coarse = coarseDirectory
        let spans = (coarse.span(of: cover.first), cover.second.map { coarse.span(of: $0) })
        if spans.0.cellCount + (spans.1?.cellCount ?? 0) <= LandmarkIndex.directoryCellLimit {
            let room = coarse.entryCount(of: spans.0) + (spans.1.map { coarse.entryCount(of: $0) } ?? 0)
            if room <= LandmarkIndex.coarseEntryLimit { return withBuckets(meeting: cover, spans, from: coarse, room: room, body) }
        }
        return bucketsMeeting(cover).withUnsafeBufferPointer(body)
    }

    /// `withBuckets` from one of the directories; `spans`: the cells of the cover's boxes there,
    /// `room`: their entry count.
    @inline(__always)
    func withBuckets<R>(
        meeting cover: CapCover, _ spans: (BucketDirectory.Span, BucketDirectory.Span?), from directory: BucketDirectory,
        room: Int, _ body: (UnsafeBufferPointer<Int32>) -> R
    ) -> R {
        withUnsafeTemporaryAllocation(of: Int32.self, capacity: max(1, room)) { out in
            var n = directory.appendBuckets(meeting: cover.first, spans.0, boxes: bucketBoxes, into: out, count: 0)
            if let second = cover.second, let span = spans.1 {
                n = directory.appendBuckets(
                    meeting: second, span, boxes: bucketBoxes, skipping: cover.first, into: out, count: n)
            }
            return body(UnsafeBufferPointer(rebasing: out[0..<n]))
        }
    }

    /// Writes to `runs` the slot range of each of `buckets` whose bounding sphere comes within
    /// `chordLimit` of `query`, from its first slot with z >= query.z − chordLimit (see
    /// `firstSlot`), and returns their number. Each step prefetches what the next one reads, for
    /// all buckets at once: the z of the buckets that pass, then the points where their runs start.
    @inline(__always)
    func nearRuns(
        of buckets: UnsafeBufferPointer<Int32>, within chordLimit: Double, from query: EarthCenteredPoint,
        _ zs: UnsafeBufferPointer<Float>, _ points: UnsafeBufferPointer<Double>,
        into runs: UnsafeMutablePointer<(Int, Int)>
    ) -> Int {
        var n = 0
        do {
            let spheres = bucketSpheres
            for bucket in buckets {
                let b = Int(bucket)
                let center = EarthCenteredPoint(x: spheres[4 &* b], y: spheres[4 &* b &+ 1], z: spheres[4 &* b &+ 2])
                if query.chord(to: center) - spheres[4 &* b &+ 3] > chordLimit { continue }
                let range = slots(ofBucket: b)
                landmark_prefetch(zs.baseAddress.unsafelyUnwrapped + range.lowerBound)
                landmark_prefetch(zs.baseAddress.unsafelyUnwrapped + (range.lowerBound &+ 16))
                runs[n] = (range.lowerBound, range.upperBound)
                n &+= 1
            }
        }
        for i in 0..<n {
            let start = firstSlot(in: runs[i].0..<runs[i].1, atOrAbove: query.z - chordLimit, zs)
            landmark_prefetch(points.baseAddress.unsafelyUnwrapped + 3 &* start)
            landmark_prefetch(points.baseAddress.unsafelyUnwrapped + (3 &* start &+ 8))
            runs[i].0 = start
        }
        return n
    }

    /// Calls `body` with those of `buckets` whose bounding sphere comes within `bound` of `query`
    /// (its chord), each with that lower bound of every chord to its landmarks, and with an upper
    /// bound of the chord to the nearest of their landmarks (a sphere's far side), the nearest
    /// one first, so that the scan's bound is tight from its start and prunes the rest by their
    /// lower bounds; the rest in the order given, but for the one that was first, which takes the
    /// nearest's place. No sort, and the pick made by selects: a sort's and a branchy pick's
    /// comparisons mispredict (measured; see Benchmarks/LOG.md). Every bucket is still weighed
    /// by its lower bound, so the answers are those of a sorted ranking.
    func withRanked<R>(
        _ buckets: UnsafeBufferPointer<Int32>, from query: EarthCenteredPoint, within bound: Double,
        _ body: (UnsafeMutableBufferPointer<(Double, Int32)>, Double) -> R
    ) -> R {
        withUnsafeTemporaryAllocation(of: (Double, Int32).self, capacity: max(1, buckets.count)) { ranked in
            var n = 0
            var nearest = 0
            var nearestBound = Double.infinity
            // The chord to some landmark is at most the chord to a bucket's centre plus its radius.
            var someChord = Double.infinity
            do {
                let spheres = bucketSpheres
                for bucket in buckets {
                    let b = Int(bucket)
                    let center = EarthCenteredPoint(x: spheres[4 * b], y: spheres[4 * b + 1], z: spheres[4 * b + 2])
                    let chord = query.chord(to: center)
                    let lowerBound = max(0, chord - spheres[4 * b + 3])
                    if lowerBound > bound { continue }
                    someChord = min(someChord, chord + spheres[4 * b + 3])
                    // Selects, not a branch: which bucket is nearest is a coin toss.
                    let nearer = lowerBound < nearestBound
                    nearest = nearer ? n : nearest
                    nearestBound = nearer ? lowerBound : nearestBound
                    if n < LandmarkIndex.startsFound {
                        // Its z, for `gatherReachable`'s first step (the misses overlap).
                        let zs = slotZ.baseAddress.unsafelyUnwrapped + b &* LandmarkIndex.bucketSize
                        landmark_prefetch(zs)
                        landmark_prefetch(zs + 16)
                    }
                    ranked.initializeElement(at: n, to: (lowerBound, bucket))
                    n += 1
                }
            }
            if n > 0 { ranked.swapAt(0, nearest) }
            return body(UnsafeMutableBufferPointer(rebasing: ranked[0..<n]), someChord)
        }
    }

    /// Finds the `limit` smallest chords to the landmarks of `ranked` (for one answer, starting
    /// from `knownChord`, a landmark's chord known beforehand) and, in the same walk, gathers
    /// every landmark that may still be an answer, then calls `body` with them and the bound:
    /// the `limit`-th smallest chord (infinity when `ranked` holds fewer). Squared chords are
    /// compared with the squared bound, so only a chord below it costs a square root (measured: a
    /// square root a landmark costs a fifth of a query; see Benchmarks/LOG.md). The landmarks
    /// gathered are those whose chord is within `GeodesicBounds.upper` of the bound at the time it
    /// was met (the bound only shrinks, so this holds all that are within it of the final bound),
    /// with their squared chords. One walk instead of two (measured: a second walk costs a tenth of
    /// a query; see Benchmarks/LOG.md).
    @inline(__always)
    func withReachable<R>(
        _ ranked: UnsafeMutableBufferPointer<(Double, Int32)>, from query: EarthCenteredPoint,
        limit: Int, knownChord: Double, _ body: (UnsafeMutableBufferPointer<(Int32, Double)>, Double) -> R
    ) -> R {
        func start() -> SmallestValues {
            var best = SmallestValues(capacity: limit)
            if limit == 1 { best.offer(knownChord) }
            return best
        }
        var slotCount = 0
        for (_, bucket) in ranked { slotCount += slots(ofBucket: Int(bucket)).count }
        // A room of 64 gathered landmarks first (1 KiB: on the stack; a larger room comes from
        // malloc, measured to matter near a city; see Benchmarks/LOG.md), the whole room only when
        // that overflows.
        let small = min(slotCount, 64)
        if let done = withUnsafeTemporaryAllocation(
            of: (Int32, Double).self, capacity: max(1, small),
            { out -> R? in
                var best = start()
                guard let n = gatherReachable(ranked, from: query, best: &best, into: out) else { return nil }
                return body(UnsafeMutableBufferPointer(rebasing: out[0..<n]), best.bound)
            })
        {
            return done
        }
        return withUnsafeTemporaryAllocation(of: (Int32, Double).self, capacity: max(1, slotCount)) { out in
            var best = start()
            let n = gatherReachable(ranked, from: query, best: &best, into: out)!
            return body(UnsafeMutableBufferPointer(rebasing: out[0..<n]), best.bound)
        }
    }

    /// `withReachable`'s walk: the number gathered into `out`, or nil when `out` is too small.
    @inline(__always)
    func gatherReachable(
        _ ranked: UnsafeMutableBufferPointer<(Double, Int32)>, from query: EarthCenteredPoint,
        best: inout SmallestValues, into out: UnsafeMutableBufferPointer<(Int32, Double)>
    ) -> Int? {
        var gathering = Gathering(bound: best.bound)
        var overflow = false
        withSlots { points, zs in
            // Where the sweeps of the first few buckets start, found at once (their z were
            // asked for by `withRanked`), and the points there and just below asked for: the
            // sweeps' first loads miss the cache (measured: the hottest lines of a search; see
            // Benchmarks/LOG.md), and asked for together their misses overlap.
            let early = min(ranked.count, LandmarkIndex.startsFound)
            withUnsafeTemporaryAllocation(of: Int.self, capacity: LandmarkIndex.startsFound) { starts in
                for i in 0..<early where ranked[i].0 <= gathering.farthest {
                    let start = firstSlot(in: slots(ofBucket: Int(ranked[i].1)), atOrAbove: query.z, zs)
                    // The slot below and the next few, within the table.
                    let base = points.baseAddress.unsafelyUnwrapped
                    landmark_prefetch(base + 3 &* max(0, start &- 1))
                    landmark_prefetch(base + min(points.count &- 1, 3 &* start &+ 5))
                    starts[i] = start
                }
                for (i, (lowerBound, bucket)) in ranked.enumerated() {
                    if lowerBound > gathering.farthest { continue }
                    let range = slots(ofBucket: Int(bucket))
                    let start = i < early ? starts[i] : firstSlot(in: range, atOrAbove: query.z, zs)
                    guard sweep(range, from: start, query, points, zs, best: &best, &gathering, into: out) else {
                        overflow = true
                        return
                    }
                }
            }
        }
        return overflow ? nil : gathering.count
    }

    /// `gatherReachable` over the buckets that the hierarchy's walk reaches within the shrinking
    /// bound's reach (and within `limit`, a reach known beforehand), instead of a list.
    @inline(__always)
    func gatherWalking(
        from query: EarthCenteredPoint, reachingAtMost limit: Double, best: inout SmallestValues,
        into out: UnsafeMutableBufferPointer<(Int32, Double)>
    ) -> Int? {
        var gathering = Gathering(bound: best.bound)
        var finished = true
        withSlots { points, zs in
            finished = hierarchy.forEachBucket(within: min(limit, gathering.farthest), of: query) { bucket in
                let range = slots(ofBucket: bucket)
                let swept: Bool
                if reachesWhole(range, from: query, zs, within: gathering.farthest) {
                    swept = scanWhole(range, query, points, best: &best, &gathering, into: out)
                } else {
                    let start = firstSlot(in: range, atOrAbove: query.z, zs)
                    swept = sweep(range, from: start, query, points, zs, best: &best, &gathering, into: out)
                }
                guard swept else { return nil }
                return min(limit, gathering.farthest)
            }
        }
        return finished ? gathering.count : nil
    }

    /// A gathering's bound (its `SmallestValues`'), that bound's reach, and the landmarks gathered.
    struct Gathering {
        private(set) var bound = Double.infinity
        private(set) var boundSquared = Double.infinity
        private(set) var farthest = Double.infinity
        private(set) var farthestSquared = Double.infinity
        var count = 0

        @inline(__always) init(bound: Double) { tighten(to: bound) }

        @inline(__always) mutating func tighten(to bound: Double) {
            self.bound = bound
            boundSquared = bound * bound
            farthest = LandmarkIndex.reach(bound)
            farthestSquared = farthest * farthest
        }
    }

    /// Sweeps a bucket's slots (`range`) outward from `start` (its first slot at or above the
    /// query's z): offers `best` each chord below its bound and gathers into `out` each landmark
    /// within the bound's reach; false when `out` is full.
    ///
    /// The slots near the query's z come first, so that the bound shrinks early and the sweep
    /// stops soon (a bucket's slots are sorted by z): a slot above and a slot below in turn, each
    /// side until its next slot is beyond reach in z. (Not the nearer of the two in z first: that
    /// is a branch a slot, which mispredicts; measured, see Benchmarks/LOG.md.) `slotZ` orders and
    /// stops it: Float(z) is within 0.25 m of z here, so a slot more than `farthest` + 1 m away in
    /// Float(z) is beyond `farthest`; `farthest` only shrinks, so a side stopped holds no slot
    /// within the final reach, and every slot within it is met while the reach is at least as
    /// large, and gathered.
    @inline(__always)
    func sweep(
        _ range: Range<Int>, from start: Int, _ query: EarthCenteredPoint, _ points: UnsafeBufferPointer<Double>,
        _ zs: UnsafeBufferPointer<Float>, best: inout SmallestValues, _ gathering: inout Gathering,
        into out: UnsafeMutableBufferPointer<(Int32, Double)>
    ) -> Bool {
        // The slot at `slot`: its chord, offered and gathered; false when it is within reach
        // and `out` is full.
        @inline(__always) func visit(_ slot: Int) -> Bool {
            let p = EarthCenteredPoint(x: points[3 &* slot], y: points[3 &* slot &+ 1], z: points[3 &* slot &+ 2])
            let chordSquared = query.chordSquared(to: p)
            // Written always, counted only within reach: a branch on whether a slot is within
            // reach mispredicts (measured; see Benchmarks/LOG.md).
            let reached = chordSquared <= gathering.farthestSquared
            guard gathering.count < out.count else { return !reached }
            out.initializeElement(at: gathering.count, to: (Int32(truncatingIfNeeded: slot), chordSquared))
            gathering.count &+= reached ? 1 : 0
            // `measure` reads its index (`finish`): asked for here, that cache miss overlaps the
            // sweep instead of stalling `finish` (measured; see Benchmarks/LOG.md).
            landmark_prefetch(slotIndex.baseAddress.unsafelyUnwrapped + slot)
            if chordSquared < gathering.boundSquared {
                best.offer(chordSquared.squareRoot())
                if best.bound < gathering.bound { gathering.tighten(to: best.bound) }
            }
            return true
        }
        var up = start
        var down = start &- 1
        var upOpen = up < range.upperBound
        var downOpen = down >= range.lowerBound
        while upOpen || downOpen {
            if upOpen {
                if Double(zs[up]) - query.z > gathering.farthest + 1 {
                    upOpen = false
                } else {
                    guard visit(up) else { return false }
                    up &+= 1
                    upOpen = up < range.upperBound
                }
            }
            if downOpen {
                if query.z - Double(zs[down]) > gathering.farthest + 1 {
                    downOpen = false
                } else {
                    guard visit(down) else { return false }
                    down &-= 1
                    downOpen = down >= range.lowerBound
                }
            }
        }
        return true
    }

    /// Whether every slot of `range` lies within `farthest` + 1 m of the query in z (`slotZ`, a
    /// bucket's are sorted): then `sweep` would reach them all, and `scanWhole` costs less.
    @inline(__always)
    func reachesWhole(
        _ range: Range<Int>, from query: EarthCenteredPoint, _ zs: UnsafeBufferPointer<Float>, within farthest: Double
    ) -> Bool {
        query.z - Double(zs[range.lowerBound]) <= farthest + 1 && Double(zs[range.upperBound &- 1]) - query.z <= farthest + 1
    }

    /// `sweep` for a bucket whose slots it would all reach (far from land, where the bound is
    /// hundreds of kilometres and a bucket a few): every squared chord first, in a loop without
    /// branches, then the smallest (for one answer; each below the bound for more) offered to
    /// `best`, then every slot within the reach of the tightened bound gathered. The same
    /// landmarks as `sweep`'s or fewer, and never one fewer within the reach of the final bound
    /// (the bound only shrinks). `sweep`'s order in z buys nothing when all are reached, and
    /// costs instructions a slot (measured; see Benchmarks/LOG.md).
    @inline(__always)
    func scanWhole(
        _ range: Range<Int>, _ query: EarthCenteredPoint, _ points: UnsafeBufferPointer<Double>,
        best: inout SmallestValues, _ gathering: inout Gathering, into out: UnsafeMutableBufferPointer<(Int32, Double)>
    ) -> Bool {
        withUnsafeTemporaryAllocation(of: Double.self, capacity: LandmarkIndex.bucketSize) { chords in
            let first = range.lowerBound
            var smallest = Double.infinity
            for i in 0..<range.count {
                let slot = first &+ i
                let chordSquared = query.chordSquared(
                    to: EarthCenteredPoint(x: points[3 &* slot], y: points[3 &* slot &+ 1], z: points[3 &* slot &+ 2]))
                chords[i] = chordSquared
                smallest = min(smallest, chordSquared)
            }
            if smallest < gathering.boundSquared {
                if best.capacity == 1 {
                    best.offer(smallest.squareRoot())
                } else {
                    for i in 0..<range.count where chords[i] < gathering.boundSquared { best.offer(chords[i].squareRoot()) }
                }
                if best.bound < gathering.bound { gathering.tighten(to: best.bound) }
            }
            for i in 0..<range.count where chords[i] <= gathering.farthestSquared {
                guard gathering.count < out.count else { return false }
                out.initializeElement(at: gathering.count, to: (Int32(truncatingIfNeeded: first &+ i), chords[i]))
                gathering.count &+= 1
                landmark_prefetch(slotIndex.baseAddress.unsafelyUnwrapped + (first &+ i))
            }
            return true
        }
    }

    /// The buckets whose boxes meet the cover's boxes, each once, from GEOS's tree.
    func bucketsMeeting(_ cover: CapCover) -> [Int32] {
        var buckets: [Int32] = []
        buckets.reserveCapacity(32)
        tree.query(cover.first, into: &buckets)
        if let second = cover.second {
            // A bucket spanning ±180° can meet both halves.
            tree.query(second, into: &buckets)
            buckets.sort()
            var unique: [Int32] = []
            unique.reserveCapacity(buckets.count)
            for bucket in buckets where unique.last != bucket { unique.append(bucket) }
            return unique
        }
        return buckets
    }

    /// The first slot of a bucket whose z is >= `z` (or the bucket's end), or one before it. A
    /// bucket is sorted by latitude, and z = N (1 − e²) sin φ grows with latitude, so the slots
    /// within a chord c of the query form one run with |z − z_query| <= c: the scans start
    /// there and stop past z_query + c, skipping the rest of the bucket.
    ///
    /// It counts the bucket's `slotZ` (z as `Float`) below `Float(z)` with two 16-lane compares:
    /// no branch, two cache lines, where a binary search over the points themselves waits on five
    /// dependent loads from five cache lines, mostly misses (measured; see Benchmarks/LOG.md). The
    /// count is safe: `Float(zᵢ) < Float(z)` implies zᵢ < z (rounding is monotone), so no slot at
    /// or above `z` is skipped; a slot just below it may be kept, and the chord test rejects it.
    @inline(__always)
    func firstSlot(in range: Range<Int>, atOrAbove z: Double, _ zs: UnsafeBufferPointer<Float>) -> Int {
        let target = Float(z)
        guard range.count == LandmarkIndex.bucketSize else {
            var slot = range.lowerBound
            while slot < range.upperBound && zs[slot] < target { slot &+= 1 }
            return slot
        }
        let start = UnsafeRawPointer(zs.baseAddress.unsafelyUnwrapped + range.lowerBound)
        let limit = SIMD16<Float>(repeating: target)
        let low = start.loadUnaligned(as: SIMD16<Float>.self)
        let high = start.loadUnaligned(fromByteOffset: 64, as: SIMD16<Float>.self)
        let none = SIMD16<Int32>(repeating: 0)
        let one = SIMD16<Int32>(repeating: 1)
        let below = none.replacing(with: one, where: low .< limit) &+ none.replacing(with: one, where: high .< limit)
        return range.lowerBound &+ Int(below.wrappedSum())
    }
}
