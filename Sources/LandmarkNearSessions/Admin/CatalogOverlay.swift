@_spi(Inlining) import LandmarkNearCore
import LandmarkNearEngine
import LandmarkNearOutputs
import LandmarkNearReaders

/// The changes `serve` took over its API, over the `--landmarks` and `--profiles` files: by
/// landmark id and by device, the latest change of each (docs/reference/serve.md). Applied
/// over the files at every start with `--state` and at every SIGHUP, so that neither undoes
/// an accepted change.
///
/// Indexes never shift: a landmark the files have keeps their index; one they lack is
/// appended (in the order of the positions it was given, so a restart over the same files
/// gives it the same index); a deleted one leaves its position empty (`LandmarkCatalog.vacate`:
/// nothing matches it, listings omit it, and a `PUT` of its id takes the position back).
///
///     var overlay = try CatalogOverlay(store: store)
///     let catalog = try overlay.catalog(over: filesCatalog)
package struct CatalogOverlay {
    struct LandmarkEntry {
        var position: Int
        /// nil: deleted.
        var landmark: Landmark?
        var feature: JSONValue?
    }

    struct ProfileEntry {
        /// nil: deleted (the device has no profile, whatever the file says).
        var profile: DeviceProfiles.Profile?
        var object: JSONValue?
    }

    private(set) var landmarks: [Int: LandmarkEntry] = [:]
    private(set) var profiles: [DeviceKey: ProfileEntry] = [:]

    package init() {}

    /// The changes a store keeps; one that no longer reads (a later release's rule) refuses the
    /// start, naming it, rather than being dropped in silence.
    package init(store: StateStore) throws(WatchError) {
        do {
            for change in try store.loadLandmarkChanges() {
                var entry = LandmarkEntry(position: change.position)
                if let feature = change.feature {
                    let read = try LandmarkFeature.read(Array(feature.utf8), id: change.id, source: "\(store.path): landmark \(change.id)")
                    entry.landmark = read.landmark
                    entry.feature = read.feature
                }
                landmarks[change.id] = entry
            }
            for change in try store.loadProfileChanges() {
                var entry = ProfileEntry()
                if let object = change.profile {
                    let read = try ProfileObject.read(
                        Array(object.utf8), device: change.device, source: "\(store.path): profile")
                    entry.profile = read.profile
                    entry.object = read.object
                }
                profiles[DeviceKey(change.device)] = entry
            }
        } catch let error as StateError {
            throw WatchError(error)
        } catch {
            throw WatchError(kind: .badData, origin: .state, message: "\(error)")
        }
    }

    var isEmpty: Bool { landmarks.isEmpty && profiles.isEmpty }

    mutating func set(_ id: Int, _ entry: LandmarkEntry) { landmarks[id] = entry }
    mutating func set(_ device: String, _ entry: ProfileEntry) { profiles[DeviceKey(device)] = entry }

    /// The catalog in force: `base` with every change. A full rebuild (the catalog's columns
    /// and id table are made again: linear in the catalog, see docs/reference/serve.md for the
    /// time it takes).
    package func catalog(over base: LandmarkCatalog) throws(CatalogError) -> LandmarkCatalog {
        guard !landmarks.isEmpty else { return base }
        var all = Array(base.landmarks)
        var vacant: [Int] = []
        for (id, entry) in landmarks.sorted(by: { ($0.value.position, $0.key) < ($1.value.position, $1.key) }) {
            let index: Int
            if let known = base.index(ofID: id) {
                index = known
            } else {
                index = all.count
                all.append(Self.emptied(id))
            }
            if let landmark = entry.landmark {
                all[index] = landmark
            } else {
                all[index] = Self.emptied(id)
                vacant.append(index)
            }
        }
        var catalog = try LandmarkCatalog(all, source: "the catalog with serve's changes")
        for index in vacant { catalog.vacate(index) }
        return catalog
    }

    /// What stands at an empty position: the id (still taken), and nothing anyone sees.
    private static func emptied(_ id: Int) -> Landmark {
        Landmark(id: id, name: "(deleted)", coordinate: Coordinate(latitude: 0, longitude: 0))
    }

    /// The profiles in force: `base` with every change.
    package func profiles(over base: DeviceProfiles) -> DeviceProfiles {
        guard !profiles.isEmpty else { return base }
        var entries = base.entries
        for (key, entry) in profiles { entries[key] = entry.profile }
        return DeviceProfiles(entries: entries, warnings: base.warnings)
    }

    /// The profile object of `device` if a change set it: `.some(nil)` when one deleted it.
    func object(of device: String) -> JSONValue?? {
        profiles[DeviceKey(device)].map { $0.object }
    }

    /// The Features `PUT`s set, by id.
    var features: [Int: JSONValue] { landmarks.compactMapValues(\.feature) }
}
