@_spi(Inlining) import LandmarkNearCore

/// A payload that cannot become a notification view model: which file, which key, and why.
///
///     // "a.apns: $.aps.alert: must be a string or a dictionary, got an array"
public struct PayloadParseError: LandmarkNearError, Sendable, Equatable {
    public var source: String
    /// The JSON path of the offending key (`$.aps.alert.title`), nil for the document as a whole.
    public var path: String?
    public var reason: String

    package init(source: String, path: String? = nil, reason: String) {
        self.source = source
        self.path = path
        self.reason = reason
    }

    public var kind: ErrorKind { .badData }

    public var description: String {
        if let path { return "\(source): \(path): \(reason)" }
        return "\(source): \(reason)"
    }
}
