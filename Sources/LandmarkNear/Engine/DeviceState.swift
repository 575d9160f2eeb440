/// What the engine remembers about one device: bounded by its favourites, not by the length
/// of the stream.
struct DeviceState {
    /// The time of the latest used timed fix.
    var latestTime: Timestamp?
    /// Which favourite set applies (0 = the default favourites).
    var favoriteSet: Int32
    var prefersNotifications: Bool
    /// Favourites (positions in the engine's favourite list) currently `inside`.
    var inside: [Int32] = []
    /// Latest notification per favourite; a nil time means it was notified by an untimed fix.
    var notified: [(favorite: Int32, time: Timestamp?)] = []
    /// Candidate cache: favourites within radius + slack of `cacheCenter`. While the device
    /// stays within `slack` of the centre, no other favourite can be within the radius.
    var cacheCenter: Coordinate?
    var cacheCenterCosine = 1.0
    var candidates: [Int32] = []

    init(favoriteSet: Int32, prefersNotifications: Bool) {
        self.favoriteSet = favoriteSet
        self.prefersNotifications = prefersNotifications
    }

    enum Admission: Equatable {
        /// Not later than the latest used timed fix.
        case stale
        /// Used, and nothing can happen: no favourite is inside or within the cached radius.
        case idle
        /// Used; the engine must look at the favourites (and refresh the cache unless it holds).
        case active(cacheHolds: Bool)
    }

    /// The per-fix fast path, in one access to the state: the stale check and clock update,
    /// and whether the candidate cache (still) rules out any event.
    mutating func admit(time: Timestamp?, at coordinate: Coordinate, slack: Double) -> Admission {
        if let time {
            if let latestTime, time <= latestTime { return .stale }
            latestTime = time
        }
        guard let cacheCenter else { return .active(cacheHolds: false) }
        let holds = CacheBound.distanceUpperBound(from: coordinate, to: cacheCenter,
                                                  cosineOfCenterLatitude: cacheCenterCosine) <= slack
        return holds && inside.isEmpty && candidates.isEmpty ? .idle : .active(cacheHolds: holds)
    }

    func lastNotification(of favorite: Int32) -> (found: Bool, time: Timestamp?) {
        for entry in notified where entry.favorite == favorite { return (true, entry.time) }
        return (false, nil)
    }

    mutating func recordNotification(of favorite: Int32, at time: Timestamp?) {
        if let slot = notified.firstIndex(where: { $0.favorite == favorite }) {
            notified[slot].time = time
        } else {
            notified.append((favorite, time))
        }
    }
}
