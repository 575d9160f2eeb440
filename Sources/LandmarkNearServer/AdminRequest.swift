@_spi(Inlining) import LandmarkNearCore
import LandmarkNearEngine

/// What an admin asks of the running engine (docs/reference/serve.md, "Changing the catalog and
/// profiles"; "Who is inside"). Bodies are read and checked on the HTTP thread; the engine
/// thread only applies what is already known to be well formed, and checks what needs the
/// catalog in force (a profile's favourite ids).
package enum AdminRequest: Sendable {
    /// `PUT /landmarks/ID`: the landmark and the Feature to keep.
    case putLandmark(id: Int, landmark: Landmark, feature: JSONValue)
    /// `DELETE /landmarks/ID`.
    case deleteLandmark(id: Int)
    /// `GET /landmarks`: the catalog in force as a FeatureCollection.
    case listLandmarks
    /// `GET /landmarks/ID`.
    case landmark(id: Int)
    /// `GET /landmarks/ID/inside`: the devices inside it.
    case inside(id: Int)
    /// `PUT /profiles/DEVICE`.
    case putProfile(device: String, profile: DeviceProfiles.Profile, object: JSONValue, warnings: [String])
    /// `DELETE /profiles/DEVICE`.
    case deleteProfile(device: String)
    /// `GET /profiles/DEVICE`.
    case profile(device: String)
    /// `GET /devices/DEVICE`: its latest fix and the landmarks it is inside.
    case device(String)

    /// Whether it changes anything (audited, counted, kept with `--state`).
    package var isChange: Bool {
        switch self {
        case .putLandmark, .deleteLandmark, .putProfile, .deleteProfile: true
        case .listLandmarks, .landmark, .inside, .profile, .device: false
        }
    }
}
