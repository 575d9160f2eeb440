@_spi(Inlining) import LandmarkNearCore

/// What the engine remembers about one device: bounded by its favourites, not by the length
/// of the stream, and packed (72 bytes, one favourite entry of 16 inline) because a service
/// tracks millions of devices.
struct DeviceState {
    /// The latest used timed fix; `latestNanoseconds < 0` means none yet.
    private var latestSeconds: Int64 = 0
    private var latestNanoseconds: Int32 = -1
    /// Used fixes of this device so far: names the `.apns` files of untimed fixes.
    var fixCount: UInt32 = 0
    /// Candidate cache centre, rounded to Float (the cache test keeps a margin for it);
    /// NaN latitude means no cache.
    private var cacheLatitude: Float = .nan
    private var cacheLongitude: Float = .nan
    private var cacheCosine: Float = 1
    /// The quiet disc: the fix where the engine last looked at the device's favourites, and how
    /// far (metres, a lower bound) the device may move from it before any of them can be
    /// entered or left (NaN latitude or budget 0: none). With every landmark a favourite, a
    /// device in a city is inside or near dozens of them, and testing each on every fix is costly
    /// (measured: a fifth of `watch --favorites all`; see Benchmarks/LOG.md); within the disc a
    /// fix costs one bound.
    private var quietLatitude: Float = .nan
    private var quietLongitude: Float = .nan
    private var quietCosine: Float = 1
    private var quietBudget: Float = 0
    /// Which favourite set applies (0 = the default favourites).
    let favoriteSet: UInt16
    private var flags: UInt8
    /// The favourites that matter to this device: candidates (within radius + slack of the
    /// cache centre), those it is inside, and those it was notified about. The first is kept
    /// inline, the rest (rarely any) in `more`.
    private var first = FavoriteEntry.none
    private var more: [FavoriteEntry] = []

    private static let prefersNotificationsFlag: UInt8 = 1
    private static let changedFlag: UInt8 = 2
    private static let favoritesChangedFlag: UInt8 = 4

    /// How far (metres) the Float-rounded cache centre and cosine may be from the exact ones.
    static let cacheRoundingMargin = 5.0

    init(favoriteSet: UInt16, prefersNotifications: Bool) {
        self.favoriteSet = favoriteSet
        flags = prefersNotifications ? DeviceState.prefersNotificationsFlag : 0
    }

    var prefersNotifications: Bool { flags & DeviceState.prefersNotificationsFlag != 0 }

    var latestTime: Timestamp? {
        get { latestNanoseconds < 0 ? nil : Timestamp(seconds: latestSeconds, nanoseconds: latestNanoseconds) }
        set {
            latestSeconds = newValue?.seconds ?? 0
            latestNanoseconds = newValue?.nanoseconds ?? -1
        }
    }

    // MARK: change tracking (for --state)

    /// Whether the device changed since the last `clearChanged()`; returns true the first time.
    mutating func markChanged(favorites: Bool) -> Bool {
        let wasChanged = flags & DeviceState.changedFlag != 0
        flags |= DeviceState.changedFlag | (favorites ? DeviceState.favoritesChangedFlag : 0)
        return !wasChanged
    }

    var favoritesChanged: Bool { flags & DeviceState.favoritesChangedFlag != 0 }

    mutating func clearChanged() {
        flags &= ~(DeviceState.changedFlag | DeviceState.favoritesChangedFlag)
    }

    enum Admission: Equatable {
        /// Earlier than the latest used timed fix.
        case stale
        /// At the very time of the latest used timed fix (stale too): a second report of one
        /// moment, as an NMEA GGA after the RMC of its second.
        case sameTime
        /// Used, and nothing can happen: no favourite is inside or within the cached radius.
        case idle
        /// Used; the engine must look at the favourites (and refresh the cache unless it holds).
        case active(cacheHolds: Bool)
    }

    /// The per-fix fast path, in one access to the state: the stale check and clock update,
    /// and whether the candidate cache (still) rules out any event.
    mutating func admit(time: Timestamp?, at coordinate: Coordinate, slack: Double) -> Admission {
        if let time {
            if latestNanoseconds >= 0, (time.seconds, time.nanoseconds) <= (latestSeconds, latestNanoseconds) {
                return (time.seconds, time.nanoseconds) == (latestSeconds, latestNanoseconds) ? .sameTime : .stale
            }
            latestSeconds = time.seconds
            latestNanoseconds = time.nanoseconds
        }
        guard !cacheLatitude.isNaN else { return .active(cacheHolds: false) }
        let center = Coordinate(latitude: Double(cacheLatitude), longitude: Double(cacheLongitude))
        let bound = CacheBound.distanceUpperBound(from: coordinate, to: center, cosineOfCenterLatitude: Double(cacheCosine))
        let holds = bound <= slack - DeviceState.cacheRoundingMargin
        guard holds else { return .active(cacheHolds: false) }
        if quietBudget > 0 {
            let anchor = Coordinate(latitude: Double(quietLatitude), longitude: Double(quietLongitude))
            let moved = CacheBound.distanceUpperBound(from: coordinate, to: anchor, cosineOfCenterLatitude: Double(quietCosine))
            if moved <= Double(quietBudget) - DeviceState.cacheRoundingMargin { return .idle }
        }
        return isQuiet ? .idle : .active(cacheHolds: true)
    }

    /// Sets the quiet disc around `anchor` (see `quietBudget`); a budget <= the rounding
    /// margin sets none.
    mutating func setQuiet(around anchor: Coordinate, cosine: Double, budget: Double) {
        guard budget > DeviceState.cacheRoundingMargin else {
            quietBudget = 0
            return
        }
        quietLatitude = Float(anchor.latitude)
        quietLongitude = Float(anchor.longitude)
        // Rounded up, and the budget down: the disc must not grow.
        quietCosine = min(1, Float(cosine).nextUp)
        quietBudget = Float(budget).nextDown
    }

    // MARK: favourite entries

    @inline(__always)
    var entryCount: Int { first.isNone ? 0 : 1 + more.count }

    @inline(__always)
    subscript(entry position: Int) -> FavoriteEntry {
        get { position == 0 ? first : more[position - 1] }
        set { if position == 0 { first = newValue } else { more[position - 1] = newValue } }
    }

    func position(of favorite: Int32) -> Int? {
        if first.isNone { return nil }
        if first.favorite == favorite { return 0 }
        for (offset, entry) in more.enumerated() where entry.favorite == favorite { return offset + 1 }
        return nil
    }

    /// The entry for `favorite`, created (with no role yet) when missing.
    mutating func positionCreating(_ favorite: Int32) -> Int {
        if let position = position(of: favorite) { return position }
        if first.isNone {
            first = FavoriteEntry(favorite: favorite)
            return 0
        }
        more.append(FavoriteEntry(favorite: favorite))
        return more.count
    }

    /// Drops entries that no longer play any role, keeping the first slot filled.
    mutating func compact() {
        if !more.isEmpty { more.removeAll { !$0.isUseful } }
        if !first.isUseful {
            first = more.isEmpty ? .none : more.removeFirst()
        }
    }

    /// No favourite is a candidate or inside: a fix within the cache cannot cause an event.
    private var isQuiet: Bool {
        if first.isNone { return true }
        if first.isActive { return false }
        for entry in more where entry.isActive { return false }
        return true
    }

    var isInsideAny: Bool {
        if first.isNone { return false }
        if first.isInside { return true }
        return more.contains { $0.isInside }
    }

    /// Replaces the candidate set (a fresh index query around `center`).
    mutating func setCandidates(_ favorites: [Int32], center: Coordinate, cosine: Double) {
        for position in 0..<entryCount { self[entry: position].isCandidate = false }
        for favorite in favorites {
            let position = positionCreating(favorite)
            self[entry: position].isCandidate = true
        }
        compact()
        cacheLatitude = Float(center.latitude)
        cacheLongitude = Float(center.longitude)
        // Rounded up: the cache bound must not shrink.
        cacheCosine = min(1, Float(cosine).nextUp)
        quietBudget = 0
    }

    func lastNotification(of favorite: Int32) -> (found: Bool, time: Timestamp?) {
        guard let position = position(of: favorite) else { return (false, nil) }
        let entry = self[entry: position]
        return entry.isNotified ? (true, entry.notifiedTime) : (false, nil)
    }

    mutating func recordNotification(of favorite: Int32, at time: Timestamp?) {
        let position = positionCreating(favorite)
        self[entry: position].notifiedTime = time
        self[entry: position].isNotified = true
    }
}

/// One favourite as one device sees it: a candidate of its cache, inside, notified (and when).
/// 16 bytes: the roles share a word with the favourite's position (below 2^29, which the
/// engine checks), so that `DeviceState` keeps its quiet disc within 72 bytes.
struct FavoriteEntry {
    /// Low 29 bits: the position in the engine's favourite list (all ones: an empty slot);
    /// high 3 bits: the roles.
    private var bits: UInt32
    private var notifiedNanoseconds: Int32 = -1
    private var notifiedSeconds: Int64 = 0

    /// Favourite positions are below this.
    static let positionLimit = 1 << 29
    private static let positionMask: UInt32 = 1 << 29 - 1

    static let none = FavoriteEntry(favorite: -1)

    init(favorite: Int32) { bits = favorite < 0 ? FavoriteEntry.positionMask : UInt32(favorite) }

    /// Position in the engine's favourite list; -1 for an empty slot.
    var favorite: Int32 { isNone ? -1 : Int32(bits & FavoriteEntry.positionMask) }

    var isNone: Bool { bits & FavoriteEntry.positionMask == FavoriteEntry.positionMask }
    var isUseful: Bool { roles != 0 }
    /// A candidate or inside: fixes near the cache centre must look at it.
    var isActive: Bool { roles & (FavoriteEntry.candidateRole | FavoriteEntry.insideRole) != 0 }

    private var roles: UInt32 {
        get { bits >> 29 }
        set { bits = bits & FavoriteEntry.positionMask | newValue << 29 }
    }

    private static let candidateRole: UInt32 = 1, insideRole: UInt32 = 2, notifiedRole: UInt32 = 4

    var isCandidate: Bool {
        get { roles & FavoriteEntry.candidateRole != 0 }
        set { roles = newValue ? roles | FavoriteEntry.candidateRole : roles & ~FavoriteEntry.candidateRole }
    }
    var isInside: Bool {
        get { roles & FavoriteEntry.insideRole != 0 }
        set { roles = newValue ? roles | FavoriteEntry.insideRole : roles & ~FavoriteEntry.insideRole }
    }
    var isNotified: Bool {
        get { roles & FavoriteEntry.notifiedRole != 0 }
        set { roles = newValue ? roles | FavoriteEntry.notifiedRole : roles & ~FavoriteEntry.notifiedRole }
    }
    /// The fix time of the latest notification; nil when it was an untimed fix.
    var notifiedTime: Timestamp? {
        get { notifiedNanoseconds < 0 ? nil : Timestamp(seconds: notifiedSeconds, nanoseconds: notifiedNanoseconds) }
        set {
            notifiedSeconds = newValue?.seconds ?? 0
            notifiedNanoseconds = newValue?.nanoseconds ?? -1
        }
    }
}
