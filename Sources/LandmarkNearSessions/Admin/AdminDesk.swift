import Dispatch
@_spi(Inlining) import LandmarkNearCore
import LandmarkNearEngine
import LandmarkNearOutputs
import LandmarkNearReaders
import LandmarkNearServer

/// `serve`'s admin requests, on the engine thread (docs/reference/serve.md): a change to the
/// catalog or profiles is applied between two records by a reload of the engine
/// (`Pipeline.reload`, which keeps every device's state and forgets what left the favourites,
/// without an exit event), kept with `--state`, counted and audited on stderr; a question is
/// answered from the engine's state as it is between those two records. Either way the answer
/// goes out once its batch is committed, so a 200 change is in force for every later fix and
/// saved.
///
/// A change is all or nothing: the new catalog and engine are made first; if either is
/// refused (400), or the store cannot keep the change (503), the engine in force stays.
package final class AdminDesk {
    let pipeline: Pipeline
    /// What the `--landmarks` and `--profiles` files give (the embedded catalog without one).
    private var files: (catalog: LandmarkCatalog, profiles: DeviceProfiles)
    private(set) var overlay: CatalogOverlay
    /// For `/metrics`; set by the server before it drains.
    var metrics: ServerMetrics?
    private(set) var changesApplied = 0
    private var insideCountedAt: UInt64 = 0

    /// `catalog` and `profiles` are the files'; `overlay` the changes kept (the pipeline was
    /// made with the two applied: `CatalogOverlay.catalog(over:)`).
    package init(pipeline: Pipeline, files catalog: LandmarkCatalog, profiles: DeviceProfiles, overlay: CatalogOverlay) {
        self.pipeline = pipeline
        files = (catalog, profiles)
        self.overlay = overlay
    }

    /// SIGHUP: the files read again, the changes applied over them.
    package func reload(files catalog: LandmarkCatalog, profiles: DeviceProfiles) throws(WatchError) {
        let inForce: LandmarkCatalog
        do {
            inForce = try overlay.catalog(over: catalog)
        } catch {
            throw WatchError(kind: error.kind, origin: .favorites, message: error.description)
        }
        try pipeline.reload(catalog: inForce, profiles: overlay.profiles(over: profiles))
        files = (catalog, profiles)
        publish(force: true)
    }

    /// The answer to one admin request, by `user` (nil without `--users`).
    func handle(_ request: AdminRequest, user: String?) -> EngineAnswer {
        if case .listLandmarks = request {
            return .listing(LandmarkListing(catalog: pipeline.catalog, features: overlay.features))
        }
        return .answered(response(to: request, user: user))
    }

    private func response(to request: AdminRequest, user: String?) -> HTTPResponse {
        let catalog = pipeline.catalog
        switch request {
        case .putLandmark(let id, let landmark, let feature):
            let position = catalog.index(ofID: id) ?? catalog.count
            var next = overlay
            next.set(id, .init(position: position, landmark: landmark, feature: feature))
            let change = LandmarkChange(id: id, position: position, feature: JSONWriter.serialize(feature))
            return apply(next, user: user, what: "PUT /landmarks/\(id) (index \(position))", keep: .init(change)) {
                AdminAnswers.landmark(feature, index: position)
            }
        case .deleteLandmark(let id):
            guard let index = catalog.index(ofID: id), !catalog.isVacant(at: index) else { return AdminAnswers.noLandmark(id) }
            var next = overlay
            next.set(id, .init(position: index))
            let change = LandmarkChange(id: id, position: index, feature: nil)
            return apply(next, user: user, what: "DELETE /landmarks/\(id) (index \(index))", keep: .init(change)) {
                .json(200, "{\"deleted\":\(id),\"index\":\(index)}\n")
            }
        case .listLandmarks:  // answered by `handle`, off this thread
            return LandmarkListing(catalog: catalog, features: overlay.features).response
        case .landmark(let id):
            guard let index = catalog.index(ofID: id), !catalog.isVacant(at: index) else { return AdminAnswers.noLandmark(id) }
            return AdminAnswers.landmark(LandmarkListing(catalog: catalog, features: overlay.features).feature(at: index), index: index)
        case .inside(let id):
            guard let index = catalog.index(ofID: id), !catalog.isVacant(at: index) else { return AdminAnswers.noLandmark(id) }
            return AdminAnswers.inside(id: id, index: index, name: catalog.name(at: index), devices: pipeline.devicesInside(landmark: id))
        case .putProfile(let device, let profile, let object, let warnings):
            var next = overlay
            next.set(device, .init(profile: profile, object: object))
            let change = ProfileChange(device: device, profile: JSONWriter.serialize(object))
            return apply(next, user: user, what: "PUT /profiles (device \(TerminalText.quoted(device)))", keep: .init(change)) {
                AdminAnswers.profile(device, object, warnings: warnings)
            }
        case .deleteProfile(let device):
            guard profileObject(of: device) != nil else { return AdminAnswers.noProfile(device) }
            var next = overlay
            next.set(device, .init())
            let change = ProfileChange(device: device, profile: nil)
            return apply(next, user: user, what: "DELETE /profiles (device \(TerminalText.quoted(device)))", keep: .init(change)) {
                AdminAnswers.profile(device, nil, warnings: [])
            }
        case .profile(let device):
            guard let object = profileObject(of: device) else { return AdminAnswers.noProfile(device) }
            return AdminAnswers.profile(device, object, warnings: [])
        case .device(let device):
            guard let snapshot = pipeline.whereabouts(of: device) else {
                return .problem(404, "no device \(JSONWriter.quoted(device)) has sent a fix")
            }
            return AdminAnswers.device(snapshot)
        }
    }

    /// Makes `next` the changes in force: the catalog and engine made with it, then kept in the
    /// store; on any refusal, nothing changes.
    private func apply(
        _ next: CatalogOverlay, user: String?, what: String, keep: KeptChange,
        answer: () -> HTTPResponse
    ) -> HTTPResponse {
        let who = user.map { "user \(TerminalText.quoted($0))" } ?? "(no --users)"
        // What the batch decided before the change is saved first, as before a SIGHUP reload:
        // the state file never holds the change without the fixes that came before it.
        do {
            try pipeline.commit()
        } catch {
            audit("\(who) \(what): not applied: \(error.description)")
            return .problem(503, "cannot save the fixes before the change: \(error.description)")
        }
        let before = (catalog: pipeline.catalog, profiles: pipeline.options.engine.profiles)
        let catalog: LandmarkCatalog
        do {
            catalog = try next.catalog(over: files.catalog)
        } catch {
            audit("\(who) \(what): refused: \(error.description)")
            return ServerRouter.refusal(LandmarkFeature.reasons(of: error))
        }
        do {
            try pipeline.reload(catalog: catalog, profiles: next.profiles(over: files.profiles))
        } catch {
            audit("\(who) \(what): refused: \(error.description)")
            return ServerRouter.refusal([error.description])
        }
        if let store = pipeline.commits?.store {
            do {
                switch keep {
                case .landmark(let change): try store.save(change, by: user)
                case .profile(let change): try store.save(change, by: user)
                }
            } catch {
                // Not kept, so not in force either: a restart would not have it.
                try? pipeline.reload(catalog: before.catalog, profiles: before.profiles)
                audit("\(who) \(what): not applied: cannot keep it in --state: \(error.description)")
                return .problem(503, "cannot keep the change in the state file: \(error.description)")
            }
        }
        overlay = next
        changesApplied += 1
        audit("\(who) \(what): applied")
        publish(force: true)
        return answer()
    }

    /// One audit line on stderr: who changed what (never a body: profiles hold device tokens).
    private func audit(_ line: String) {
        standardError("landmark-near serve: admin: " + line)
    }

    /// The profile object in force for `device`: as a `PUT` gave it, or the file's.
    private func profileObject(of device: String) -> JSONValue? {
        if let changed = overlay.object(of: device) { return changed }
        return files.profiles[device].map(ProfileObject.object(of:))
    }

    /// The catalog size, changes applied and who is inside, for `/metrics`: after every change,
    /// and after every batch while there are at most 10,000 devices (counting who is inside
    /// visits every device: tens of microseconds then); beyond, at most once a second.
    func publish(force: Bool = false) {
        guard let metrics else { return }
        let now = DispatchTime.now().uptimeNanoseconds
        guard force || pipeline.statistics.devices <= 10_000 || now &- insideCountedAt >= 1_000_000_000 else { return }
        insideCountedAt = now
        let catalog = pipeline.catalog
        let vacant = catalog.hasVacancies ? (0..<catalog.count).count(where: catalog.isVacant(at:)) : 0
        let inside = pipeline.insideCounts
        metrics.publishAdmin(
            AdminCounts(
                landmarks: catalog.count - vacant, changesApplied: changesApplied, devicesInside: inside.devices,
                insidePairs: inside.pairs))
    }
}

/// The row a change leaves in the state file.
private enum KeptChange {
    case landmark(LandmarkChange)
    case profile(ProfileChange)

    init(_ change: LandmarkChange) { self = .landmark(change) }
    init(_ change: ProfileChange) { self = .profile(change) }
}
