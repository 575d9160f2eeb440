@_spi(Inlining) import LandmarkNearCore

/// What the tutorial's watch notification view shows for a payload: a title, a message and
/// (when `landmarkIndex` names one) the landmark.
///
///     let (model, _) = try PayloadParser.parse(Array(payload.utf8), source: "a.apns",
///                                              catalog: .embedded, strings: nil)
///     model.title      // "Silver Salmon Creek"
///     model.landmark?.park   // "Lake Clark National Park and Preserve"
public struct NotificationViewModel: Sendable, Equatable {
    /// The tutorial's fallbacks when the payload lacks a title or body.
    public static let defaultTitle = "Unknown Landmark"
    public static let defaultMessage = "You are within 5 miles of one of your favorite landmarks."

    public var title: String
    public var message: String
    /// The landmark at `landmarkIndex`, nil when there is no index or it is out of range.
    public var landmark: Landmark?
    /// `landmarkIndex` as the payload gave it (nil when missing or null).
    public var landmarkIndex: Int?

    package init(
        title: String = NotificationViewModel.defaultTitle,
        message: String = NotificationViewModel.defaultMessage,
        landmark: Landmark? = nil, landmarkIndex: Int? = nil
    ) {
        self.title = title
        self.message = message
        self.landmark = landmark
        self.landmarkIndex = landmarkIndex
    }

    /// One compact JSON object, as `parse --json` prints it:
    /// `{"source":"a.apns","title":"…","message":"…","landmark":{"index":1,"id":1002,"name":"…","park":"…","state":"…"}}`.
    package func json(source: String) -> String {
        var out = "{\"source\":"
        JSONWriter.appendString(source, to: &out)
        out += ",\"title\":"
        JSONWriter.appendString(title, to: &out)
        out += ",\"message\":"
        JSONWriter.appendString(message, to: &out)
        out += ",\"landmark\":"
        if let landmark, let landmarkIndex {
            out += "{\"index\":\(landmarkIndex),\"id\":\(landmark.id),\"name\":"
            JSONWriter.appendString(landmark.name, to: &out)
            out += ",\"park\":"
            NotificationViewModel.appendOptional(landmark.park, to: &out)
            out += ",\"state\":"
            NotificationViewModel.appendOptional(landmark.state, to: &out)
            out += "}"
        } else {
            out += "null"
        }
        return out + "}"
    }

    private static func appendOptional(_ text: String?, to out: inout String) {
        if let text {
            JSONWriter.appendString(text, to: &out)
        } else {
            out += "null"
        }
    }
}
