/// What the engine remembers about one device: bounded by its favourites, not by the length
/// of the stream, and packed (64 bytes, one favourite entry of 16 inline) because a service
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
    /// A lower bound (metres) on how far a fix must be from the cache centre before it can
    /// enter any candidate: min over candidates of (a lower bound of its distance from the
    /// centre − its radius). Infinite with no candidate. Fixes nearer than that, with no
    /// favourite inside, are `idle`: with every landmark a favourite, a device in a city has
    /// dozens of candidates, and testing each on every fix (a load of its unit vector from a
    /// 3 MB array, mostly a cache miss) was a fifth of `watch --favorites all` (per `perf`).
    private var enterGap: Float = .infinity
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
        let quiet = bound <= Double(enterGap) - DeviceState.cacheRoundingMargin
        return quiet && !isInsideAny ? .idle : .active(cacheHolds: true)
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

    var isInsideAny: Bool {
        if first.isNone { return false }
        if first.isInside { return true }
        return more.contains { $0.isInside }
    }

    /// Replaces the candidate set (a fresh index query around `center`); `enterGap` is how far
    /// (metres, a lower bound) a fix must move from `center` before it can enter any of them.
    mutating func setCandidates(_ favorites: [Int32], center: Coordinate, cosine: Double, enterGap gap: Double) {
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
        // Rounded down: the gap must not grow.
        enterGap = gap > 0 ? Float(gap).nextDown : 0
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
/// engine checks), so that `DeviceState` keeps its `enterGap` within 64 bytes.
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
