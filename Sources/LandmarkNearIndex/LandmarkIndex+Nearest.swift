import CLinux
@_spi(Inlining) import LandmarkNearCore
@_spi(Inlining) import LandmarkNearGeodesy

/// `nearest` and `forEachNearest`: the k nearest landmarks, exactly.
extension LandmarkIndex {
    /// The `limit` landmarks nearest to `point` (all of them when `limit` >= `count`), sorted
    /// by (distance, index). Empty for an invalid point or `limit` <= 0.
    public func nearest(to point: Coordinate, limit: Int) -> [LandmarkNeighbor] {
        nearest(to: point, limit: limit, within: .infinity)
    }

    /// `nearest(to:limit:within:)` of each of `points`, handed to `body` with the point's
    /// position in `points`, in locality order (along a Z-order curve over cells of 1.4° by
    /// 0.7°, so that neighbours on the map come one after another), not in the order given: the
    /// answers are the same, and on the benchmark's mix of places and open sea, in batches of
    /// 4,096, the searches miss the cache and mispredict branches less (`landmark-bench index`,
    /// the "batches" row). Each answer is handed on as it is found; no batch of answers is held.
    ///
    ///     var answers = [[LandmarkNeighbor]](repeating: [], count: points.count)
    ///     index.forEachNearest(of: points, limit: 1) { position, neighbors in answers[position] = neighbors }
    public func forEachNearest(
        of points: [Coordinate], limit: Int, within cutoff: Double = .infinity,
        _ body: (_ position: Int, _ neighbors: [LandmarkNeighbor]) throws -> Void
    ) rethrows {
        for position in LocalityOrder.positions(of: points) {
            try body(position, nearest(to: points[position], limit: limit, within: cutoff))
        }
    }

    /// `nearest(to:limit:)` without those farther than `radius` metres (the boundary decided
    /// with exact distances).
    ///
    ///     index.nearest(to: here, limit: 3, within: 8046.72)   // at most 3, all within 5 mi
    public func nearest(to point: Coordinate, limit: Int, within cutoff: Double) -> [LandmarkNeighbor] {
        guard count > 0, limit > 0, point.isValid, cutoff >= 0 else { return [] }
        let (query, latitudeSine, latitudeCosine) = EarthCenteredPoint.withLatitudeTrigonometry(point)
        func cover(ofRadius radius: Double) -> CapCover {
            CapCover(center: point, radius: radius, latitudeSine: latitudeSine, latitudeCosine: latitudeCosine)
        }
        if limit >= count {
            var all: [Candidate] = []
            all.reserveCapacity(count)
            for slot in 0..<count {
                let p = slotPoint(slot)
                all.append(measure(slot, p, chordSquared: query.chordSquared(to: p), from: query, point))
            }
            return answers(&all, from: point, query, limit: limit, radius: cutoff)
        }
        // First the point's own cell: its buckets (the nearest first) and, for one answer, its
        // witness usually give the `limit` smallest chords, and the cap that surely holds the
        // answers often lies in the cell: then its buckets hold every answer. Otherwise that
        // cap (or, where the cell holds too few, one of about the landmarks' mean spacing,
        // grown until it holds `limit`) is searched, from the directory or the tree.
        let cell = directory.grid.cell(latitude: point.latitude, longitude: point.longitude)
        let inCell: NearestPass = directory.withBuckets(ofCell: cell) { buckets in
            // The witness only where the cell has no bucket (its point is one more cache miss);
            // then no answer can be settled in the cell, and its chord bounds the walk.
            if limit == 1 && buckets.isEmpty {
                let witness = directory.witness(ofCell: cell)
                if witness >= 0 {
                    let chord = query.chord(to: slotPoint(witness))
                    return .searchAgain(GeodesicBounds.upper(chord: chord), chord: chord)
                }
            }
            return withRanked(buckets, from: query, within: .infinity) { ranked, someChord in
                // For one answer, the spheres' bound gives the scan a finite bound from its start.
                withReachable(ranked, from: query, limit: limit, knownChord: someChord) { reachable, bound in
                    guard bound < .infinity else { return .tooFew }
                    let threshold = GeodesicBounds.upper(chord: bound)
                    // `finish` takes the landmarks within chord `threshold` + margin (a chord is
                    // never longer than its geodesic).
                    guard directory.holdsChordBall(threshold + GeodesicBounds.margin, around: query, inCell: cell) else {
                        return .searchAgain(threshold, chord: bound)
                    }
                    return .answered(finish(reachable, threshold: threshold, from: query, point, limit: limit, cutoff: cutoff))
                }
            }
        }
        var radius: Double
        // For one answer, a chord of a real landmark: a safe bound from the start of each search.
        var knownChord = Double.infinity
        switch inCell {
        case .answered(let neighbors): return neighbors
        case .searchAgain(let sureRadius, let chord):
            // A cap of less than half a cell's height (a point near its cell's edge) takes its
            // few cells' lists, a larger one the hierarchy's walk (fewer instructions than
            // walking for all: measured; see Benchmarks/LOG.md).
            if sureRadius >= smallestWalk,
                let neighbors = nearest(to: point, query, limit: limit, cutoff: cutoff, chordBound: chord)
            {
                return neighbors
            }
            radius = sureRadius
            knownChord = chord
        case .tooFew: radius = firstRadius * Double(limit).squareRoot()
        }
        while true {
            let cover = cover(ofRadius: radius)
            let pass: NearestPass = withBuckets(meeting: cover) { buckets in
                // Buckets that could hold a landmark within `radius`, the nearest first (by the
                // chord to its bounding sphere), so that the bound is tight early and the farther
                // buckets are skipped.
                withRanked(buckets, from: query, within: radius + GeodesicBounds.margin) { ranked, someChord in
                    withReachable(ranked, from: query, limit: limit, knownChord: min(knownChord, someChord)) {
                        reachable, bound -> NearestPass in
                        guard bound < .infinity else { return .tooFew }
                        // `limit` landmarks are at most this far.
                        let threshold = GeodesicBounds.upper(chord: bound)
                        // Landmarks outside the box could be nearer than `threshold`: search the
                        // cap that surely holds `limit` landmarks.
                        guard threshold <= radius else { return .searchAgain(threshold, chord: bound) }
                        // Every landmark within `radius` is in the box.
                        return .answered(
                            finish(reachable, threshold: threshold, from: query, point, limit: limit, cutoff: cutoff))
                    }
                }
            }
            switch pass {
            case .answered(let neighbors): return neighbors
            case .searchAgain(let sureRadius, let chord):
                radius = sureRadius
                knownChord = chord
            case .tooFew:
                // Too few in the box: grow, to the whole world at last.
                radius = radius < 1_000_000 ? radius * 4 : radius * 2
                if radius >= EllipsoidConstants.longestGeodesic { radius = .infinity }
            }
        }
    }

    /// `nearest` once the `limit`-th nearest landmark's chord is known to be at most `chordBound`:
    /// the hierarchy's walk from the nearest bucket on, each bucket swept as it is reached (the
    /// bound shrinks as it goes, and the walk skips what is then out of reach); nil when the
    /// landmarks gathered are more than a walk takes at once (then the cap is searched).
    ///
    /// As in a cap's search, every landmark that can be an answer has a chord of at most the
    /// reach of the bound at any time of the walk, so its bucket is reached and it is gathered
    /// (see `BucketHierarchy` and `withReachable`).
    func nearest(
        to point: Coordinate, _ query: EarthCenteredPoint, limit: Int, cutoff: Double, chordBound: Double
    ) -> [LandmarkNeighbor]? {
        // Room for 64 gathered landmarks (1 KiB: on the stack); far from land a walk gathers four.
        withUnsafeTemporaryAllocation(of: (Int32, Double).self, capacity: 64) { room -> [LandmarkNeighbor]? in
            var best = SmallestValues(capacity: limit)
            if limit == 1 { best.offer(chordBound) }
            guard
                let n = gatherWalking(
                    from: query, reachingAtMost: LandmarkIndex.reach(chordBound), best: &best, into: room),
                best.isFull
            else { return nil }
            let threshold = GeodesicBounds.upper(chord: best.bound)
            return finish(
                UnsafeMutableBufferPointer(rebasing: room[0..<n]), threshold: threshold, from: query, point, limit: limit,
                cutoff: cutoff)
        }
    }

    /// The answers among `reachable` (every landmark within `threshold` of the point is there):
    /// those whose chord is <= threshold (a chord is never longer than its geodesic), measured.
    /// `reachable` is reordered in place: those within come first.
    func finish(
        _ reachable: UnsafeMutableBufferPointer<(Int32, Double)>, threshold: Double,
        from query: EarthCenteredPoint, _ point: Coordinate, limit: Int, cutoff: Double
    ) -> [LandmarkNeighbor] {
        let chordLimit = threshold + GeodesicBounds.margin
        let limitSquared = chordLimit * chordLimit
        // Those within the limit moved to the front, in order, without a branch (which of a
        // search's few gathered landmarks are within is a coin toss for the predictor).
        var count = 0
        for i in reachable.indices {
            let gathered = reachable[i]
            reachable[count] = gathered
            count &+= gathered.1 <= limitSquared ? 1 : 0
        }
        return withUnsafeTemporaryAllocation(of: Candidate.self, capacity: max(1, count)) { found in
            for (n, (slot, chordSquared)) in reachable[0..<count].enumerated() {
                found.initializeElement(
                    at: n, to: measure(Int(slot), slotPoint(Int(slot)), chordSquared: chordSquared, from: query, point))
            }
            return answers(
                in: UnsafeMutableBufferPointer(rebasing: found[0..<count]), from: point, query, limit: limit, radius: cutoff)
        }
    }

    /// How far a landmark may be (its chord) and still be nearer than one at chord `bound`:
    /// `GeodesicBounds.upper` of it.
    @inline(__always) static func reach(_ bound: Double) -> Double {
        bound == .infinity ? bound : GeodesicBounds.upper(chord: bound) + GeodesicBounds.margin
    }

    /// The first `limit` of `found` by (distance, index), as the exact distances would order
    /// them: sorted by the measured distances, then wherever two neighbours' error intervals
    /// meet (their true order is unsure), both are measured more closely (`refine`) and the list
    /// sorted again, until no two meet (at worst every distance is `geod_inverse`'s). Then each
    /// interval lies wholly below the next, so the order is the exact one. Answers whose bound
    /// exceeds `tolerance(ofDistance:)` of their distance are refined last, and the order settled
    /// again if that moved them.
    func answers(
        _ found: inout [Candidate], from point: Coordinate, _ query: EarthCenteredPoint, limit: Int,
        radius: Double = .infinity
    ) -> [LandmarkNeighbor] {
        found.withUnsafeMutableBufferPointer { answers(in: $0, from: point, query, limit: limit, radius: radius) }
    }

    /// `answers` in place, over a buffer the caller owns (no array to allocate a query).
    func answers(
        in all: UnsafeMutableBufferPointer<Candidate>, from point: Coordinate, _ query: EarthCenteredPoint, limit: Int,
        radius: Double = .infinity
    ) -> [LandmarkNeighbor] {
        func precedes(_ a: Candidate, _ b: Candidate) -> Bool {
            a.distance < b.distance || (a.distance == b.distance && a.index < b.index)
        }
        var found = all
        sortSmall(found, by: precedes)
        if limit < found.count {
            // `limit` landmarks are surely within the limit-th smallest upper end; whatever lies
            // surely beyond it is out, before any of it costs an exact measurement.
            let cut: Double
            if limit == 1 {
                cut = found.reduce(Double.infinity) { min($0, $1.distance + $1.error) }
            } else {
                var uppers = found.map { $0.distance + $0.error }
                uppers.sort()
                cut = uppers[limit - 1]
            }
            // Keep the order: those surely beyond the cut are dropped, the rest moved up.
            var kept = 0
            for i in 0..<found.count where found[i].distance - found[i].error <= cut {
                found.swapAt(kept, i)
                kept += 1
            }
            found = UnsafeMutableBufferPointer(rebasing: found[0..<kept])
        }
        // Settle the order, then bring the first `limit` within the tolerance; a refined
        // interval need not lie within the old one, so the order is settled again after.
        var refined = true
        while refined {
            var unsure = true
            while unsure {
                unsure = false
                var i = 0
                while i + 1 < found.count {
                    if found[i].error + found[i + 1].error > 0,
                        found[i + 1].distance - found[i + 1].error <= found[i].distance + found[i].error
                    {
                        refine(&found[i], from: point, query)
                        refine(&found[i + 1], from: point, query)
                        unsure = true
                    }
                    i += 1
                }
                if unsure { sortSmall(found, by: precedes) }
            }
            refined = false
            // Each answer within the tolerance of the distance it reports (a refined distance
            // may ask a smaller one: refined again until it holds, `geod_inverse` at last).
            for i in 0..<min(limit, found.count) where found[i].error > LandmarkIndex.nearTolerance {
                while found[i].error > LandmarkIndex.tolerance(ofDistance: found[i].distance) {
                    refine(&found[i], from: point, query)
                    refined = true
                }
            }
        }
        let kept = min(limit, found.count)
        var result: [LandmarkNeighbor] = []
        result.reserveCapacity(kept)
        for i in 0..<kept {
            // Beyond `radius` (exactly so where it is near): this one and all after it are out.
            if found[i].distance - found[i].error > radius { break }
            if !isWithin(&found[i], radius, from: point, query) { break }
            result.append(LandmarkNeighbor(index: Int(found[i].index), distance: found[i].distance))
        }
        return result
    }

    /// Sorts `items`: by insertion when they are few (a search finds two or three, for which the
    /// library's sort costs more; see Benchmarks/LOG.md), else by the library's sort.
    @inline(__always)
    func sortSmall(_ items: UnsafeMutableBufferPointer<Candidate>, by precedes: (Candidate, Candidate) -> Bool) {
        guard items.count <= 16 else {
            var items = items
            items.sort(by: precedes)
            return
        }
        for i in 1..<max(1, items.count) {
            let item = items[i]
            var j = i
            while j > 0, precedes(item, items[j - 1]) {
                items[j] = items[j - 1]
                j -= 1
            }
            items[j] = item
        }
    }

    /// How one search of `nearest` ended.
    enum NearestPass {
        case answered([LandmarkNeighbor])
        /// Fewer than `limit` landmarks in the cap.
        case tooFew
        /// Landmarks outside the cap could be nearer: the cap of this radius surely holds them
        /// (`chord`: the `limit`-th smallest chord found).
        case searchAgain(Double, chord: Double)
    }
}
