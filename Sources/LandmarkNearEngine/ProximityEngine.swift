@_spi(Inlining) import LandmarkNearCore
@_spi(Inlining) import LandmarkNearGeodesy
import LandmarkNearIndex

#if canImport(Glibc)
import Glibc
#endif

/// The state machine of docs/reference/engine.md: per device and favourite landmark, `outside` -> `inside`
/// on a fix within the radius (an `enter`, notified unless suppressed by the device's profile,
/// its quiet hours or the cooldown), and back to `outside` beyond radius + hysteresis (an `exit`).
///
///     let engine = try ProximityEngine(catalog: .embedded, configuration: EngineConfiguration())
///     var events: [ProximityEvent] = []
///     let fix = Fix(device: "car", coordinate: Coordinate(latitude: 34.02, longitude: -116.16))
///     engine.process(fix, into: &events)   // .used; events: [enter Turtle Rock]
///
/// Only favourites are indexed. Each device caches the favourites within radius + `slack`
/// of where it last queried the index; until it moves `slack` away no other favourite can
/// come within the radius, so most fixes of a moving device need no index query at all.
public final class ProximityEngine {
    public let catalog: LandmarkCatalog
    public let configuration: EngineConfiguration

    /// Catalog indices of every landmark that is someone's favourite, ascending.
    let favorites: [Int]
    let favoriteVectors: [UnitVector]
    /// Per favourite, its coordinate and its Earth-centred point (for `ShortGeodesic`), at hand
    /// for every geodesic the engine computes, without going to the catalog (see
    /// Benchmarks/LOG.md).
    let favoriteCoordinates: [Coordinate]
    let favoritePoints: [EarthCenteredPoint]
    let favoriteIndex: LandmarkIndex
    /// Per favourite, its place (area or line) when it is one; empty when none is.
    let favoriteShapes: [GeodesicShape?]
    /// Per favourite, how far from its point it may be entered: its radius, plus a place's cap.
    let favoriteSpans: [Double]
    /// Bounds of the places' distances this fix measured (for its quiet disc).
    @exclusivity(unchecked) var placeDistances: [(favorite: Int32, lower: Double, upper: Double)] = []
    /// The candidate query of the per-device cache (the index answers when it cannot).
    let favoriteGrid: FavoriteGrid
    /// (`@exclusivity(unchecked)`: see `deviceTable`.)
    @exclusivity(unchecked) var candidateScratch: [Int32] = []
    /// Membership per favourite set; set 0 is the default, nil means "every favourite".
    let favoriteSets: [[Bool]?]
    /// Per device with a profile: its favourite set, preference and quiet hours (a position in
    /// `quietHoursTable`, -1 for none: a small entry, see ZoneRules).
    let profileSlots: [DeviceKey: (set: UInt16, prefersNotifications: Bool, quietHours: Int32)]
    /// The profiles' distinct quiet hours.
    let quietHoursTable: [QuietHours]
    /// The quiet hours (positions in `quietHoursTable`) of the devices seen whose profile has
    /// them, by slot (see ProximityEngine+Quiet.swift); empty without any.
    @exclusivity(unchecked) var quietHoursBySlot: [Int32: Int32] = [:]

    // `@exclusivity(unchecked)`: the state touched on every fix. The engine is single-threaded
    // and these are private, never accessed re-entrantly; their dynamic exclusivity checks
    // (`swift_beginAccess`, which walks the accesses in progress) cost a tenth of a `watch` run
    // (measured; see Benchmarks/LOG.md).
    /// Slots by name bytes, not Unicode equivalence (docs/reference/fixes.md).
    @exclusivity(unchecked) var deviceTable = DeviceTable()
    @exclusivity(unchecked) var devices = DeviceStates()

    /// Whether changed devices are collected for `takeChanges()` (on with `--state`).
    @exclusivity(unchecked) package var tracksChanges = false
    @exclusivity(unchecked) var changed: [(device: String, slot: Int32)] = []
    /// The device's number of the latest used fix (1 for its first): names `.apns` files of
    /// untimed fixes.
    @exclusivity(unchecked) package private(set) var lastFixNumber = 0
    /// Whether the latest fix dropped as stale had the very time of its device's latest used
    /// fix (a second report of one moment: NMEA's GGA after the RMC of the same second)
    /// rather than an earlier one. The summary tells these apart.
    @exclusivity(unchecked) package private(set) var lastStaleRepeatedTime = false

    let slack: Double
    /// Per favourite (docs/reference/catalogs.md: a landmark's own `radius` replaces the run's): the radius, and
    /// the squared chords beyond which a fix surely cannot enter, within which it surely stays.
    let favoriteRadii: [Double]
    let enterSurelyBeyond: [Double]
    let staySurelyWithin: [Double]
    /// Per favourite, the squared chord beyond which it is surely no candidate (radius + slack);
    /// empty when every favourite has the run's radius (the grid's own limit then suffices).
    let candidateChords: [Double]
    /// The largest radius: candidates are looked up within it (+ slack).
    let largestRadius: Double
    @exclusivity(unchecked) var scratch: [ProximityEvent] = []
    /// `configuration.dwell` and `.crossingGap`, and whether either is on, at hand.
    let dwell: Double?
    let crossingGap: Double?
    let tracksMotion: Bool
    /// Per device (by slot), with `--dwell` or `--crossing`: its previous timed fix and its
    /// pending dwells. Empty otherwise.
    @exclusivity(unchecked) var motions: [MotionState] = []
    /// With `explainsMotion`, what the last fix's motion rules found (for `--explain`).
    @exclusivity(unchecked) package var explainsMotion = false
    @exclusivity(unchecked) package internal(set) var motionNotes: [MotionNote] = []

    /// - Parameters:
    ///   - catalog: the landmarks; the engine watches those that are someone's favourite.
    ///   - configuration: radius, hysteresis, cooldown, accuracy limit, favourites and profiles.
    ///   - slack: how far a device may move before its candidate cache is rebuilt.
    public init(catalog: LandmarkCatalog, configuration: EngineConfiguration, slack: Double = 2_000) throws(EngineConfigurationError) {
        self.catalog = catalog
        self.configuration = configuration
        self.slack = slack
        dwell = configuration.dwell.flatMap { $0 > 0 ? $0 : nil }
        crossingGap = configuration.crossingGap.flatMap { $0 > 0 ? $0 : nil }
        tracksMotion = dwell != nil || crossingGap != nil
        // PROJ is opened on first use (`PROJLibrary`); an engine decides boundaries with it all
        // run long, so it opens it now: a `watch` or `serve` on a system without PROJ stops at
        // start, not hours into a run on whichever thread first needs a geodesic.
        _ = Geodesic.wgs84

        let defaultIndices = try configuration.favorites.indices(in: catalog)
        var profileIndexSets: [DeviceKey: [Int]] = [:]
        for (key, profile) in configuration.profiles.entries {
            let device = key.name
            guard let ids = profile.favorites else { continue }
            var indices: [Int] = []
            for id in ids {
                guard let index = catalog.index(ofID: id) else {
                    throw EngineConfigurationError(
                        "profile of device \(JSONWriter.quoted(device)): favourite id \(id) is not in the landmark catalog", kind: .badData)
                }
                if !catalog.isVacant(at: index) { indices.append(index) }  // deleted at run time: forgotten
            }
            profileIndexSets[key] = indices
        }
        // The default indices are sorted and distinct: without profiles they are the favourites
        // (making a set of them and sorting it costs a tenth of a `--favorites all` run:
        // measured, see Benchmarks/LOG.md).
        var favorites = defaultIndices
        if !profileIndexSets.isEmpty {
            var union = Set(defaultIndices)
            for indices in profileIndexSets.values { union.formUnion(indices) }
            favorites = union.sorted()
        }
        guard favorites.count < FavoriteEntry.positionLimit else {
            throw EngineConfigurationError("more than \(FavoriteEntry.positionLimit - 1) favourite landmarks", kind: .badData)
        }
        self.favorites = favorites
        // Places (areas, lines) among the favourites: each is measured as itself, and stands in
        // the point tables by the centre of the cap that holds it (`GeodesicShape`).
        var shapes: [GeodesicShape?] = []
        if catalog.hasShapes { shapes = try Self.measuredShapes(of: favorites, in: catalog) }
        let placeShapes = shapes.contains { $0 != nil } ? shapes : []
        favoriteShapes = placeShapes
        // Fields read from the columns: `catalog[i]` would make each whole `Landmark`.
        let coordinates = favorites.indices.map { position in
            placeShapes.isEmpty
                ? catalog.coordinate(at: favorites[position]) : placeShapes[position]?.center ?? catalog.coordinate(at: favorites[position])
        }
        favoriteVectors = coordinates.map { UnitVector($0) }
        favoriteCoordinates = coordinates
        favoritePoints = coordinates.map { EarthCenteredPoint($0) }
        favoriteIndex = LandmarkIndex(coordinates: coordinates)
        let radii = favorites.map { catalog.radius(at: $0)?.meters ?? configuration.radius }
        favoriteRadii = radii
        // How far from its point (a place's cap centre) a favourite may be entered: its radius,
        // and a place's cap.
        let spans = placeShapes.isEmpty ? radii : radii.indices.map { radii[$0] + (placeShapes[$0]?.reach ?? 0) }
        let largest = spans.max() ?? configuration.radius
        largestRadius = largest
        favoriteSpans = spans
        enterSurelyBeyond = spans.map { UnitVector.squaredChord(surelyBeyond: $0) }
        // A place has no "surely within" by its centre: it is measured while inside it.
        staySurelyWithin = radii.indices.map { position in
            placeShapes.isEmpty || placeShapes[position] == nil
                ? UnitVector.squaredChord(surelyWithin: radii[position] + configuration.hysteresis) : -1
        }
        candidateChords = spans.allSatisfy({ $0 == largest }) ? [] : spans.map { UnitVector.squaredChord(surelyBeyond: $0 + slack) }
        favoriteGrid = FavoriteGrid(
            vectors: favoriteVectors, coordinates: coordinates,
            reaches: spans.map { $0 + slack })

        // `indices`: distinct, all among the favourites.
        func membership(_ indices: [Int]) -> [Bool]? {
            if indices.count == favorites.count { return nil }
            var member = [Bool](repeating: false, count: favorites.count)
            for index in indices { member[Self.position(of: index, in: favorites)!] = true }
            return member
        }
        var sets: [[Bool]?] = [membership(defaultIndices)]
        var slots: [DeviceKey: (UInt16, Bool, Int32)] = [:]
        let quiet = Self.quietHoursTable(of: configuration.profiles)
        // Profiles with the same favourites share one set (a device keeps a 16-bit set number).
        var setOfIndices: [[Int]: UInt16] = [:]
        for (device, profile) in configuration.profiles.entries {
            if let indices = profileIndexSets[device] {
                let key = Array(Set(indices)).sorted()
                if setOfIndices[key] == nil {
                    guard sets.count < Int(UInt16.max) else {
                        throw EngineConfigurationError(
                            "the profiles name more than \(UInt16.max - 1) different favourite sets", kind: .badData)
                    }
                    sets.append(membership(key))
                    setOfIndices[key] = UInt16(sets.count - 1)
                }
                slots[device] = (setOfIndices[key]!, profile.prefersNotifications, quiet.positions[device] ?? -1)
            } else {
                slots[device] = (0, profile.prefersNotifications, quiet.positions[device] ?? -1)
            }
        }
        favoriteSets = sets
        profileSlots = slots
        quietHoursTable = quiet.table
    }

    /// The favourite position of catalog landmark `index` (`favorites` is sorted), or nil.
    static func position(of index: Int, in favorites: [Int]) -> Int? {
        var low = 0
        var high = favorites.count
        while low < high {
            let middle = (low + high) / 2
            if favorites[middle] < index { low = middle + 1 } else { high = middle }
        }
        return low < favorites.count && favorites[low] == index ? low : nil
    }

    /// Devices seen so far.
    public var deviceCount: Int { devices.count }

    /// Number of landmarks some device may be notified about.
    package var favoriteCount: Int { favorites.count }

    /// Catalog indices of every landmark that is a favourite of some device (the defaults and
    /// every profile's), ascending.
    package var favoriteIndices: [Int] { favorites }

    /// Runs one fix through the state machine, appending its events (ordered by distance,
    /// then landmark index) to `events`.
    @discardableResult
    public func process(_ fix: Fix, into events: inout [ProximityEvent]) -> FixDisposition {
        if explainsMotion { motionNotes.removeAll(keepingCapacity: true) }
        guard fix.coordinate.isValid else { return .dropped(.invalid) }
        let slot = deviceSlot(for: fix.device, hash: fix.deviceHash)
        if let accuracy = fix.accuracy, accuracy > configuration.maxAccuracy {
            return .dropped(.accuracy)
        }
        return process(fix, slot: slot, state: &devices[slot], into: &events)
    }

    /// A hint that these fixes come soon (a reader's batch holds them a few records ahead):
    /// their devices' table buckets, and the starts of their favourite-grid cells (which a new
    /// or moved device reads), are fetched meanwhile. Changes nothing. A few at a time: each
    /// call borrows the engine and its two tables once, so their retains are paid once for a
    /// few fixes (measured; see Benchmarks/LOG.md).
    package func prefetchDevices(of upcoming: ArraySlice<FixLookahead>) {
        deviceTable.prefetch(upcoming)
        if favoriteGrid.isUsable { favoriteGrid.prefetch(near: upcoming) }
    }

    /// The state machine on one device's state, borrowed for the whole fix: one exclusive
    /// access to `devices` a fix instead of one each time the state is touched (measured: the
    /// dynamic exclusivity checks of a class's stored properties cost a tenth of a run; see
    /// Benchmarks/LOG.md). Nothing in here may touch `devices` itself.
    private func process(_ fix: Fix, slot: Int, state: inout DeviceState, into events: inout [ProximityEvent]) -> FixDisposition {
        // With `--accuracy-policy possible`, a fix may enter a favourite up to its accuracy
        // beyond the radius: the candidate cache holds only that much nearer its centre.
        let accuracy = configuration.accuracyPolicy == .center ? 0 : fix.accuracy ?? 0
        let admission = state.admit(
            time: fix.time, at: fix.coordinate, slack: configuration.accuracyPolicy == .possible ? slack - accuracy : slack)
        if admission == .stale || admission == .sameTime {
            lastStaleRepeatedTime = admission == .sameTime
            return .dropped(.stale)
        }
        // Used fixes only: a rerun of a timed input (its old fixes now stale) counts the same.
        state.fixCount &+= 1
        lastFixNumber = Int(state.fixCount)
        if tracksChanges, state.markChanged(favorites: false) { changed.append((fix.device, Int32(slot))) }
        let cacheHolds: Bool
        switch admission {
        case .stale, .sameTime: return .used
        case .idle:
            if tracksMotion { motionAfterFix(fix, slot: slot, state: &state, firstEvent: events.count, into: &events) }
            return .used
        case .active(let holds): cacheHolds = holds
        }
        guard !favorites.isEmpty else { return .used }

        let point = UnitVector(fix.coordinate)
        if !favoriteShapes.isEmpty { placeDistances.removeAll(keepingCapacity: true) }
        // Passes between the previous fix and this one come first (docs/reference/engine.md).
        if crossingGap != nil { crossings(to: fix, slot: slot, state: &state, cacheHolds: cacheHolds, into: &events) }
        let firstEvent = events.count
        let hysteresis = configuration.hysteresis
        let policy = configuration.accuracyPolicy
        var favoritesChanged = false
        // The fix's Earth-centred point, made when first needed.
        var fixPoint: EarthCenteredPoint?
        func earthCentred() -> EarthCenteredPoint {
            if let fixPoint { return fixPoint }
            let made = EarthCenteredPoint(fix.coordinate)
            fixPoint = made
            return made
        }

        // Exits: every inside favourite is checked, cached or not.
        for position in 0..<state.entryCount {
            let entry = state[entry: position]
            guard entry.isInside else { continue }
            let favorite = Int(entry.favorite)
            // Surely within R + H is surely within every exit limit (they are R + H or more).
            if point.squaredChord(to: favoriteVectors[favorite]) > staySurelyWithin[favorite] {
                let limit = policy.exitLimit(radius: favoriteRadii[favorite], hysteresis: hysteresis, accuracy: accuracy)
                if let shape = place(of: favorite) {
                    // The chord bounds decide unless the limit falls between them; the
                    // distance an exit reports is exact.
                    let bounds = shape.distanceBounds(from: fix.coordinate, earthCentred())
                    placeDistances.append((entry.favorite, bounds.lower, bounds.upper))
                    guard bounds.upper > limit else { continue }
                    let distance = shape.distance(from: fix.coordinate)
                    guard distance > limit else { continue }
                    state[entry: position].isInside = false
                    favoritesChanged = true
                    events.append(ProximityEvent(kind: .exit, landmarkIndex: favorites[favorite], distance: distance))
                    if dwell != nil { motions[slot].cancelDwell(of: entry.favorite) }
                    continue
                }
                let measured = shortMeasure(earthCentred(), favorite)
                if let measured, measured.distance + measured.bound <= limit { continue }
                let distance =
                    measured.flatMap { $0.distance - $0.bound > limit ? ProximityEngine.reportable($0) : nil }
                    ?? Geodesic.wgs84.distance(from: fix.coordinate, to: favoriteCoordinates[favorite])
                if distance > limit {
                    state[entry: position].isInside = false
                    favoritesChanged = true
                    events.append(ProximityEvent(kind: .exit, landmarkIndex: favorites[favorite], distance: distance))
                    if dwell != nil { motions[slot].cancelDwell(of: entry.favorite) }
                }
            }
        }

        // Enters, among the cached candidates.
        if !cacheHolds {
            refreshCandidates(state: &state, around: fix.coordinate, point: point)
        } else if favoritesChanged {
            state.compact()
        }
        if policy == .possible, accuracy > slack / 2 { addFarCandidates(state: &state, around: fix.coordinate, accuracy: accuracy) }
        var position = 0
        while position < state.entryCount {
            let entry = state[entry: position]
            position += 1
            guard entry.isCandidate, !entry.isInside else { continue }
            let favorite = Int(entry.favorite)
            let radius = policy.enterLimit(radius: favoriteRadii[favorite], accuracy: accuracy)
            // The chord beyond which the fix surely cannot enter: the radius's, unless the
            // policy reaches farther for this fix.
            let beyond =
                radius > favoriteRadii[favorite]
                ? UnitVector.squaredChord(surelyBeyond: radius + (place(of: favorite)?.reach ?? 0)) : enterSurelyBeyond[favorite]
            guard radius >= 0, point.squaredChord(to: favoriteVectors[favorite]) <= beyond else { continue }
            let landmarkIndex = favorites[favorite]
            let distance: Double
            if let shape = place(of: favorite) {
                let bounds = shape.distanceBounds(from: fix.coordinate, earthCentred())
                placeDistances.append((entry.favorite, bounds.lower, bounds.upper))
                guard bounds.lower <= radius else { continue }
                distance = bounds.upper == 0 ? 0 : shape.distance(from: fix.coordinate)
            } else {
                let measured = shortMeasure(earthCentred(), favorite)
                if let measured, measured.distance - measured.bound > radius { continue }
                distance =
                    measured.flatMap { $0.distance + $0.bound <= radius ? ProximityEngine.reportable($0) : nil }
                    ?? Geodesic.wgs84.distance(from: fix.coordinate, to: favoriteCoordinates[favorite])
            }
            guard distance <= radius else { continue }
            state[entry: position - 1].isInside = true
            favoritesChanged = true
            events.append(
                ProximityEvent(
                    kind: .enter, landmarkIndex: landmarkIndex, distance: distance,
                    suppression: enterSuppression(state: &state, slot: slot, favorite: entry.favorite, time: fix.time)))
        }
        if policy == .possible {
            // A later fix's accuracy may reach farther: no quiet disc.
            state.setQuiet(around: fix.coordinate, cosine: 1, budget: 0)
        } else {
            setQuietDisc(state: &state, at: fix.coordinate, state.entryCount > 0 ? earthCentred() : EarthCenteredPoint(x: 0, y: 0, z: 0))
        }
        if favoritesChanged, tracksChanges, state.markChanged(favorites: true) {
            changed.append((fix.device, Int32(slot)))
        }
        if events.count - firstEvent > 1 {
            // The order is the exact distances' (docs/reference/output.md): two short-line distances within
            // their bounds of each other could be in either order, so they are all measured.
            for index in firstEvent..<events.count where catalog.shape(at: events[index].landmarkIndex) == nil {
                events[index].distance = Geodesic.wgs84.distance(
                    from: fix.coordinate, to: catalog.coordinates[events[index].landmarkIndex])
            }
            events[firstEvent...].sort { ($0.distance, $0.landmarkIndex) < ($1.distance, $1.landmarkIndex) }
        }
        if tracksMotion { motionAfterFix(fix, slot: slot, state: &state, firstEvent: events.count, into: &events) }
        return .used
    }

    /// How far the device may move from this fix before its next fix could change anything:
    /// the least, over its favourites inside, of R + H minus (an upper bound of) the distance,
    /// and over its other candidates, of (a lower bound of) the distance minus R. By the
    /// triangle inequality no fix nearer than that to this one can enter or leave any of them
    /// (the candidate cache rules out the rest while it holds). Lower bound: the chord between
    /// the Earth-centred points (no path on the surface is shorter); upper bound: `ShortGeodesic`
    /// plus its error bound. 1 m off for rounding.
    private func setQuietDisc(state: inout DeviceState, at coordinate: Coordinate, _ fixPoint: EarthCenteredPoint) {
        let hysteresis = configuration.hysteresis
        var budget = Double.infinity
        var active = false
        for position in 0..<state.entryCount {
            let entry = state[entry: position]
            guard entry.isActive else { continue }
            active = true
            let favorite = Int(entry.favorite)
            let other = favoritePoints[favorite]
            let chord = fixPoint.chordSquared(to: other).squareRoot()
            if let shape = place(of: favorite) {
                // A place's exact distance when this fix measured it, else its cap's bound
                // (every distance here is 1-Lipschitz in the fix's position).
                if entry.isInside {
                    guard let measured = placeDistances.last(where: { $0.favorite == entry.favorite })?.upper else {
                        return state.setQuiet(around: coordinate, cosine: 1, budget: 0)
                    }
                    budget = min(budget, favoriteRadii[favorite] + hysteresis - measured)
                } else {
                    let lower = placeDistances.last(where: { $0.favorite == entry.favorite })?.lower ?? chord - shape.reach
                    budget = min(budget, lower - favoriteRadii[favorite])
                }
            } else if entry.isInside {
                guard chord <= ShortGeodesic.longestChord else { return state.setQuiet(around: coordinate, cosine: 1, budget: 0) }
                let upper = ShortGeodesic.distance(from: fixPoint, to: other) + ShortGeodesic.errorBound(chord: chord)
                budget = min(budget, favoriteRadii[favorite] + hysteresis - upper)
            } else {
                budget = min(budget, chord - favoriteRadii[favorite])
            }
            if budget <= DeviceState.cacheRoundingMargin + 1 { return state.setQuiet(around: coordinate, cosine: 1, budget: 0) }
        }
        // With nothing to look at, the candidate cache alone makes the next fixes idle.
        guard active else { return state.setQuiet(around: coordinate, cosine: 1, budget: 0) }
        state.setQuiet(around: coordinate, cosine: cos(coordinate.latitude * .pi / 180), budget: budget - 1)
    }

    /// An enter's suppression: with `--dwell` it waits for its dwell event (timed enters only
    /// ever dwell); else the profile, quiet hours and the cooldown decide now.
    @inline(__always)
    func enterSuppression(state: inout DeviceState, slot: Int, favorite: Int32, time: Timestamp?) -> ProximityEvent.Suppression? {
        guard dwell != nil else { return suppression(state: &state, slot: slot, favorite: favorite, time: time) }
        if let time { motions[slot].startDwell(of: favorite, at: time) }
        return .dwell
    }

    /// In this order (docs/reference/engine.md): the profile (`prefersNotifications: false`),
    /// then quiet hours, then the cooldown. Only a notification starts the cooldown: an enter
    /// suppressed by the profile or by quiet hours leaves it as it was.
    func suppression(state: inout DeviceState, slot: Int, favorite: Int32, time: Timestamp?) -> ProximityEvent.Suppression? {
        if !state.prefersNotifications { return .profile }
        if !quietHoursBySlot.isEmpty, inQuietHours(slot: slot, at: time) { return .quiet }
        let cooldown = configuration.cooldown
        if cooldown > 0, let time {
            let last = state.lastNotification(of: favorite)
            if last.found, let lastTime = last.time, time.interval(since: lastTime) < cooldown {
                return .cooldown
            }
        }
        state.recordNotification(of: favorite, at: time)
        return nil
    }

    func deviceSlot(for device: String, hash: UInt64) -> Int {
        let (slot, isNew) = deviceTable.slot(for: device, hash: hash)
        if isNew {
            let profile = profileSlots.isEmpty ? nil : profileSlots[DeviceKey(device)]
            devices.append(DeviceState(favoriteSet: profile?.set ?? 0, prefersNotifications: profile?.prefersNotifications ?? true))
            if let quietHours = profile?.quietHours, quietHours >= 0 { quietHoursBySlot[slot] = quietHours }
            if tracksMotion { motions.append(MotionState()) }
        }
        return Int(slot)
    }
}
