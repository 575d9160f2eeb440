import Foundation
@_spi(Inlining) import LandmarkNearCore

/// The proximity rules of docs/reference/engine.md with their defaults.
///
///     var configuration = EngineConfiguration()
///     configuration.radius = 8_000          // metres
///     configuration.favorites = .ids([1001, 1003])
public struct EngineConfiguration: Sendable {
    /// "Within" means geodesic distance <= radius, in metres (default 5 mi).
    public var radius: Double = Length.fiveMiles.meters
    /// An `inside` landmark is left only beyond radius + hysteresis, in metres (default 0.25 mi).
    public var hysteresis: Double = Length.quarterMile.meters
    /// Minimum fix-time gap between two notifications of one device for one landmark, in
    /// seconds; 0 disables (default 1 h).
    public var cooldown: Double = 3600
    /// Fixes with a known accuracy worse than this, in metres, are dropped (default 1000 m).
    public var maxAccuracy: Double = 1000
    /// Favourites of devices without a profile (or whose profile has no `favorites`).
    public var favorites: FavoriteSelection = .catalogFlags
    /// Per-device favourites and notification preference (`--profiles`).
    public var profiles: DeviceProfiles = DeviceProfiles()
    /// `--dwell`: seconds (fix time) a device must stay inside before an enter notifies, as a
    /// `dwell` event; nil notifies at the enter (docs/reference/engine.md, "Dwell").
    public var dwell: Double?
    /// `--crossing`: the longest gap in seconds between two timed fixes whose geodesic is
    /// searched for a landmark passed between them; nil searches none.
    public var crossingGap: Double?
    /// `--accuracy-policy`: how a fix's uncertainty counts in enter and exit decisions.
    public var accuracyPolicy: AccuracyPolicy = .center

    public init() {}

    /// Whether the engine keeps per-device motion state (the previous fix, pending dwells).
    var tracksMotion: Bool { dwell != nil || crossingGap != nil }
}

/// How a fix's horizontal accuracy `a` (unknown: 0) counts: `center` decides by the position
/// alone; `sure` enters only when the whole uncertainty circle is within the radius
/// (distance + a <= R), `possible` when any of it is (distance − a <= R); both exit only when
/// all of it is beyond radius + hysteresis (distance − a > R + H).
public enum AccuracyPolicy: String, Sendable, CaseIterable {
    case center, sure, possible

    /// The largest distance at which a fix of accuracy `accuracy` enters a landmark of radius
    /// `radius` (negative: it cannot).
    @inline(__always)
    package func enterLimit(radius: Double, accuracy: Double) -> Double {
        switch self {
        case .center: radius
        case .sure: radius - accuracy
        case .possible: radius + accuracy
        }
    }

    /// The distance beyond which a fix of accuracy `accuracy` leaves a landmark it is inside.
    @inline(__always)
    package func exitLimit(radius: Double, hysteresis: Double, accuracy: Double) -> Double {
        self == .center ? radius + hysteresis : radius + hysteresis + accuracy
    }
}

/// Which landmarks count as a device's favourites.
public enum FavoriteSelection: Sendable, Equatable {
    /// The catalog's `isFavorite` flags.
    case catalogFlags
    /// Every landmark of the catalog (`--favorites all`).
    case all
    /// These landmark ids (`--favorites 1001,1003`).
    case ids([Int])

    /// Parses the `--favorites` option: `all` or comma-separated ids.
    public init(parsing text: String) throws(UnitParseError) {
        let trimmed = ASCIIBlanks.spacesAndTabs.trimming(text)
        if trimmed.lowercased() == "all" { self = .all; return }
        var ids: [Int] = []
        for part in trimmed.split(separator: ",", omittingEmptySubsequences: false) {
            guard let id = Int(ASCIIBlanks.spacesAndTabs.trimming(part)) else {
                throw UnitParseError("\"\(text)\" is not 'all' or a comma-separated list of landmark ids (e.g. 1001,1003)")
            }
            ids.append(id)
        }
        self = .ids(ids)
    }

    /// The catalog indices selected, in catalog order; unknown ids are an error.
    package func indices(in catalog: LandmarkCatalog) throws(EngineConfigurationError) -> [Int] {
        switch self {
        case .catalogFlags: return catalog.favoriteIndices
        case .all:
            // An empty position (a landmark deleted at run time) is nobody's favourite.
            guard catalog.hasVacancies else { return Array(catalog.landmarks.indices) }
            return catalog.landmarks.indices.filter { !catalog.isVacant(at: $0) }
        case .ids(let ids):
            var indices: [Int] = []
            for id in ids {
                guard let index = catalog.index(ofID: id) else {
                    throw EngineConfigurationError("favourite id \(id) is not in the landmark catalog")
                }
                // Deleted at run time: forgotten, not an error (the deletion was accepted).
                if catalog.isVacant(at: index) { continue }
                indices.append(index)
            }
            return Array(Set(indices)).sorted()
        }
    }
}

/// A configuration that cannot run (e.g. a favourite id the catalog does not have): `.usage`
/// for the default favourites, `.badData` for a device profile (it came from a file).
public struct EngineConfigurationError: LandmarkNearError, Sendable, Equatable {
    public var description: String
    public var kind: ErrorKind
    package init(_ description: String, kind: ErrorKind = .usage) {
        self.description = description
        self.kind = kind
    }
}
