#if canImport(Glibc)
import Glibc
#endif

/// The state machine of SPEC §4: per device and favourite landmark, `outside` -> `inside`
/// on a fix within the radius (an `enter`, notified unless suppressed by the cooldown or the
/// device's profile), and back to `outside` beyond radius + hysteresis (an `exit`).
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
    private let favorites: [Int]
    private let favoriteVectors: [UnitVector]
    private let favoriteIndex: LandmarkIndex
    /// Membership per favourite set; set 0 is the default, nil means "every favourite".
    private let favoriteSets: [[Bool]?]
    private let profileSlots: [String: (set: Int32, prefersNotifications: Bool)]

    private var deviceSlots: [String: Int32] = [:]
    private var devices: [DeviceState] = []

    private let slack: Double
    private let enterSurelyBeyond: Double
    private let staySurelyWithin: Double
    private var scratch: [ProximityEvent] = []

    /// - Parameter slack: how far a device may move before its candidate cache is rebuilt.
    public init(catalog: LandmarkCatalog, configuration: EngineConfiguration, slack: Double = 2_000) throws(EngineConfigurationError) {
        self.catalog = catalog
        self.configuration = configuration
        self.slack = slack

        let defaultIndices = try configuration.favorites.indices(in: catalog)
        var profileIndexSets: [String: [Int]] = [:]
        for (device, profile) in configuration.profiles.byDevice {
            guard let ids = profile.favorites else { continue }
            var indices: [Int] = []
            for id in ids {
                guard let index = catalog.index(ofID: id) else {
                    throw EngineConfigurationError("profile of device \(JSONWriter.quoted(device)): favourite id \(id) is not in the landmark catalog", kind: .badData)
                }
                indices.append(index)
            }
            profileIndexSets[device] = indices
        }
        var union = Set(defaultIndices)
        for indices in profileIndexSets.values { union.formUnion(indices) }
        let favorites = union.sorted()
        self.favorites = favorites
        favoriteVectors = favorites.map { UnitVector(catalog[$0].coordinate) }
        favoriteIndex = LandmarkIndex(coordinates: favorites.map { catalog[$0].coordinate })

        var positionOfCatalogIndex: [Int: Int] = [:]
        for (position, index) in favorites.enumerated() { positionOfCatalogIndex[index] = position }
        func membership(_ indices: [Int]) -> [Bool]? {
            if Set(indices).count == favorites.count { return nil }
            var member = [Bool](repeating: false, count: favorites.count)
            for index in indices { member[positionOfCatalogIndex[index]!] = true }
            return member
        }
        var sets: [[Bool]?] = [membership(defaultIndices)]
        var slots: [String: (Int32, Bool)] = [:]
        for (device, profile) in configuration.profiles.byDevice {
            if let indices = profileIndexSets[device] {
                sets.append(membership(indices))
                slots[device] = (Int32(sets.count - 1), profile.prefersNotifications)
            } else {
                slots[device] = (0, profile.prefersNotifications)
            }
        }
        favoriteSets = sets
        profileSlots = slots

        let radius = configuration.radius
        enterSurelyBeyond = UnitVector.squaredChord(surelyBeyond: radius)
        staySurelyWithin = UnitVector.squaredChord(surelyWithin: radius + configuration.hysteresis)
    }

    /// Devices seen so far.
    public var deviceCount: Int { devices.count }

    /// Number of landmarks some device may be notified about.
    public var favoriteCount: Int { favorites.count }

    /// Runs one fix through the state machine, appending its events (ordered by distance,
    /// then landmark index) to `events`.
    @discardableResult
    public func process(_ fix: Fix, into events: inout [ProximityEvent]) -> FixDisposition {
        guard fix.coordinate.isValid else { return .dropped(.invalid) }
        let slot = deviceSlot(for: fix.device)
        if let accuracy = fix.accuracy, accuracy > configuration.maxAccuracy {
            return .dropped(.accuracy)
        }
        guard !favorites.isEmpty else {
            return devices[slot].admit(time: fix.time, at: fix.coordinate, slack: slack) == .stale ? .dropped(.stale) : .used
        }
        let cacheHolds: Bool
        switch devices[slot].admit(time: fix.time, at: fix.coordinate, slack: slack) {
        case .stale: return .dropped(.stale)
        case .idle: return .used
        case .active(let holds): cacheHolds = holds
        }

        let point = UnitVector(fix.coordinate)
        let firstEvent = events.count
        let radius = configuration.radius
        let exitDistance = radius + configuration.hysteresis

        // Exits: every inside favourite is checked, cached or not.
        var i = 0
        while i < devices[slot].inside.count {
            let favorite = Int(devices[slot].inside[i])
            if point.squaredChord(to: favoriteVectors[favorite]) > staySurelyWithin {
                let distance = Geodesic.wgs84.distance(from: fix.coordinate, to: catalog[favorites[favorite]].coordinate)
                if distance > exitDistance {
                    devices[slot].inside.remove(at: i)
                    events.append(ProximityEvent(kind: .exit, landmarkIndex: favorites[favorite], distance: distance))
                    continue
                }
            }
            i += 1
        }

        // Enters, among the cached candidates.
        if !cacheHolds {
            refreshCandidates(slot: slot, around: fix.coordinate)
        }
        for candidate in devices[slot].candidates {
            if point.squaredChord(to: favoriteVectors[Int(candidate)]) > enterSurelyBeyond { continue }
            if devices[slot].inside.contains(candidate) { continue }
            let landmarkIndex = favorites[Int(candidate)]
            let distance = Geodesic.wgs84.distance(from: fix.coordinate, to: catalog[landmarkIndex].coordinate)
            guard distance <= radius else { continue }
            devices[slot].inside.append(candidate)
            events.append(ProximityEvent(kind: .enter, landmarkIndex: landmarkIndex, distance: distance,
                                         suppression: suppression(slot: slot, favorite: candidate, time: fix.time)))
        }
        if events.count - firstEvent > 1 {
            events[firstEvent...].sort { ($0.distance, $0.landmarkIndex) < ($1.distance, $1.landmarkIndex) }
        }
        return .used
    }

    /// Decides whether an enter notifies, and records it when it does.
    private func suppression(slot: Int, favorite: Int32, time: Timestamp?) -> ProximityEvent.Suppression? {
        if !devices[slot].prefersNotifications { return .profile }
        let cooldown = configuration.cooldown
        if cooldown > 0, let time {
            let last = devices[slot].lastNotification(of: favorite)
            if last.found, let lastTime = last.time, time.interval(since: lastTime) < cooldown {
                return .cooldown
            }
        }
        devices[slot].recordNotification(of: favorite, at: time)
        return nil
    }

    private func refreshCandidates(slot: Int, around coordinate: Coordinate) {
        let found = favoriteIndex.within(configuration.radius + slack, of: coordinate)
        var candidates: [Int32] = []
        candidates.reserveCapacity(found.count)
        let membership = favoriteSets[Int(devices[slot].favoriteSet)]
        for neighbor in found where membership?[neighbor.index] ?? true {
            candidates.append(Int32(neighbor.index))
        }
        devices[slot].candidates = candidates
        devices[slot].cacheCenter = coordinate
        devices[slot].cacheCenterCosine = cos(coordinate.latitude * .pi / 180)
    }

    private func deviceSlot(for device: String) -> Int {
        if let slot = deviceSlots[device] { return Int(slot) }
        let profile = profileSlots[device]
        devices.append(DeviceState(favoriteSet: profile?.set ?? 0, prefersNotifications: profile?.prefersNotifications ?? true))
        deviceSlots[device] = Int32(devices.count - 1)
        return devices.count - 1
    }

    /// For `--explain`: the device's nearest favourite to `coordinate`, and whether the
    /// device is inside it.
    func nearestFavorite(of device: String, to coordinate: Coordinate) -> (landmarkIndex: Int, distance: Double, isInside: Bool)? {
        guard !favorites.isEmpty, coordinate.isValid else { return nil }
        let slot = deviceSlots[device].map(Int.init)
        let membership = favoriteSets[Int(slot.map { devices[$0].favoriteSet } ?? profileSlots[device]?.set ?? 0)]
        var limit = 1
        while true {
            let nearest = favoriteIndex.nearest(to: coordinate, limit: limit)
            if let hit = nearest.first(where: { membership?[$0.index] ?? true }) {
                let inside = slot.map { devices[$0].inside.contains(Int32(hit.index)) } ?? false
                return (favorites[hit.index], hit.distance, inside)
            }
            if nearest.count < limit { return nil }
            limit *= 4
        }
    }
}
