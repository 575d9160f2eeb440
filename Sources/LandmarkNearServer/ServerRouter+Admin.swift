@_spi(Inlining) import LandmarkNearCore
import LandmarkNearReaders

/// The admin endpoints (docs/reference/serve.md): the catalog and profiles changed while the
/// server runs, and who is inside. Here, on the HTTP thread: the route, the admin check, and
/// the body read and checked as a catalog entry or profile would be (400 with the reasons);
/// then the request goes to the engine thread through the one queue, which applies it between
/// two records and answers once its batch is committed.
///
/// | endpoint | answer |
/// |---|---|
/// | `GET /landmarks` | 200, the catalog in force (GeoJSON FeatureCollection) |
/// | `GET`, `PUT`, `DELETE /landmarks/ID` | 200 the Feature (`landmarkIndex` added); 400 `{"errors":[...]}`; 404 |
/// | `GET /landmarks/ID/inside` | 200 `{"id":..,"index":..,"devices":[{"device","since"}]}` |
/// | `GET`, `PUT`, `DELETE /profiles/DEVICE` | 200 the profile object; 400 `{"errors":[...]}`; 404 |
/// | `GET /devices/DEVICE` | 200 `{"device","latestFix","inside"}`; 404 |
extension ServerRouter {
    func handleAdmin(_ route: AdminRoute, _ request: HTTPRequest, _ answer: Answer) {
        let method = request.method
        let allowed: String
        switch route {
        case .landmarks, .landmarkInside, .device: allowed = "GET, HEAD"
        case .landmark, .profile: allowed = "GET, HEAD, PUT, DELETE"
        }
        guard allowed.split(separator: ",").contains(where: { $0.trimmingPrefix(" ") == method }) else {
            return answer(notAllowed(allowed))
        }
        // With users, every admin endpoint needs an admin (reads too: they tell where people are).
        var userName: String?
        if let authenticator {
            switch authenticator.authenticate(request.header("Authorization")) {
            case .denied: return answer(authenticationRequired())
            case .user(let user):
                guard user.isAdmin else {
                    return answer(.problem(403, "user \(JSONWriter.quoted(user.name)) is not an admin (\"admin\": true in --users)"))
                }
                userName = user.name
            }
        }
        let work: AdminRequest
        switch adminRequest(route, request) {
        case .refused(let refusal):
            // A change refused here is audited as one refused by the engine thread is.
            if method == "PUT" || method == "DELETE" {
                let who = userName.map { "user \(TerminalText.quoted($0))" } ?? "(no --users)"
                serveLine("admin: \(who) \(method) \(Self.shown(route)): refused (\(refusal.status))")
            }
            return answer(refusal)
        case .ready(let made): work = made
        }
        inFlight.add(1, ordering: .acquiringAndReleasing)
        let done = Answer { [self] response in
            answer(response)
            inFlight.subtract(1, ordering: .acquiringAndReleasing)
        }
        if draining.load(ordering: .acquiring) { return done(shuttingDown()) }
        let job = EngineJob(.admin(work, user: userName)) { outcome in
            switch outcome {
            case .answered(let response): done(response)
            case .listing(let listing): listing.respond { done($0) }
            case .failed(let reason): done(.problem(503, reason))
            case .processed: done(.problem(500, "the engine did not answer the request"))
            }
        }
        if !queue.submit(job) { done(shuttingDown()) }
    }

    /// The request for the engine, its body read and checked; or the refusal.
    private enum Reading {
        case ready(AdminRequest)
        case refused(HTTPResponse)
    }

    private func adminRequest(_ route: AdminRoute, _ request: HTTPRequest) -> Reading {
        let method = request.method == "HEAD" ? "GET" : request.method
        switch route {
        case .landmarks: return .ready(.listLandmarks)
        case .landmark(nil), .landmarkInside(nil):
            return .refused(.problem(404, "a landmark id is an integer (/landmarks/1001)"))
        case .landmarkInside(let id?): return .ready(.inside(id: id))
        case .landmark(let id?):
            switch method {
            case "DELETE": return .ready(.deleteLandmark(id: id))
            case "PUT":
                do {
                    let read = try LandmarkFeature.read(request.body, id: id, source: "landmark \(id)")
                    return .ready(.putLandmark(id: id, landmark: read.landmark, feature: read.feature))
                } catch {
                    return .refused(Self.refusal(LandmarkFeature.reasons(of: error)))
                }
            default: return .ready(.landmark(id: id))
            }
        case .profile(let device):
            switch method {
            case "DELETE": return .ready(.deleteProfile(device: device))
            case "PUT":
                do {
                    let read = try ProfileObject.read(request.body, device: device, source: "profile")
                    return .ready(.putProfile(device: device, profile: read.profile, object: read.object, warnings: read.warnings))
                } catch {
                    return .refused(Self.refusal([error.description]))
                }
            default: return .ready(.profile(device: device))
            }
        case .device(let device): return .ready(.device(device))
        }
    }

    /// The path as an audit line names it: the id, or the device quoted (it is untrusted text).
    private static func shown(_ route: AdminRoute) -> String {
        switch route {
        case .landmarks: "/landmarks"
        case .landmark(let id), .landmarkInside(let id): "/landmarks/" + (id.map(String.init) ?? "?")
        case .profile(let device): "/profiles (device \(TerminalText.quoted(device)))"
        case .device(let device): "/devices (device \(TerminalText.quoted(device)))"
        }
    }

    /// 400 `{"errors":["...", ...]}`: every reason, as a catalog or profiles file would give it.
    package static func refusal(_ reasons: [String]) -> HTTPResponse {
        var json = "{\"errors\":["
        for (index, reason) in reasons.enumerated() {
            if index > 0 { json += "," }
            JSONWriter.appendString(reason, to: &json)
        }
        return .json(400, json + "]}\n")
    }
}
