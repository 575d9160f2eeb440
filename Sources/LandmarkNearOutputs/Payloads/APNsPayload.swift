@_spi(Inlining) import LandmarkNearCore

/// The APNs payload for "near landmark L at index i", byte for byte as docs/reference/payloads.md writes it:
///
///     APNsPayload.json(for: LandmarkCatalog.embedded[1], index: 1, options: PayloadOptions())
///     // {"aps":{"alert":{"title":"Silver Salmon Creek","body":"You are within 5 miles of Silver Salmon Creek."},"category":"LandmarkNear","thread-id":"5280"},"landmarkIndex":1}
///
/// For many payloads with the same options, build a `PayloadBuilder` once (or a
/// `PayloadCache` for repeated landmarks) instead.
public enum APNsPayload {
    /// The APNs limit for a notification payload, in bytes.
    public static let maximumBytes = 4096
    /// The `aps.category` of the tutorial's watchOS notification scheme.
    package static let category = "LandmarkNear"
    /// What a shortened name ends with.
    package static let ellipsis = "…"

    /// The payload's exact bytes. A name too long for 4096 bytes is shortened (see
    /// `PayloadBuilder`). When the options alone leave no room (a huge thread or bundle id), the
    /// name is "…" and the result is over the limit: check with `PayloadBuilder.make` first.
    public static func json(for landmark: Landmark, index: Int, options: PayloadOptions) -> String {
        PayloadBuilder(options: options).json(for: landmark, index: index)
    }

    /// Like `json(for:index:options:)`, but throws when the payload cannot fit in 4096 bytes.
    /// A landmark with its own radius (docs/reference/catalogs.md) is named with it, as the engine sends it.
    public static func make(for landmark: Landmark, index: Int, options: PayloadOptions) throws(PayloadError) -> String {
        var options = options
        if let radius = landmark.radius { options.radius = radius }
        return try PayloadBuilder(options: options).make(name: landmark.name, index: index)
    }
}
