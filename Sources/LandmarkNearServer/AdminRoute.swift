/// Where an admin request goes, from its path (libmicrohttpd hands the path percent-decoded, so
/// `/profiles/alice%2Fphone` names the device `alice/phone`: everything after the prefix is
/// the device).
///
///     AdminRoute(path: "/landmarks/1001/inside")   // .landmarkInside(1001)
enum AdminRoute: Equatable {
    case landmarks
    /// `/landmarks/ID`; nil id: not an integer (404).
    case landmark(Int?)
    case landmarkInside(Int?)
    case profile(String)
    case device(String)

    init?(path: String) {
        if path == "/landmarks" || path == "/landmarks/" {
            self = .landmarks
        } else if path.hasPrefix("/landmarks/") {
            let rest = path.dropFirst("/landmarks/".count)
            if rest.hasSuffix("/inside") {
                self = .landmarkInside(Int(rest.dropLast("/inside".count)))
            } else {
                self = .landmark(Int(rest))
            }
        } else if path.hasPrefix("/profiles/"), path.count > "/profiles/".count {
            self = .profile(String(path.dropFirst("/profiles/".count)))
        } else if path.hasPrefix("/devices/"), path.count > "/devices/".count {
            self = .device(String(path.dropFirst("/devices/".count)))
        } else {
            return nil
        }
    }
}
