@_spi(Inlining) import LandmarkNearCore

/// The human-readable rendering of a `NotificationViewModel`, laid out like the watch
/// notification: the title, a divider, the message, and the landmark's park and state.
/// All payload and catalog text goes through `TerminalText.safe`.
///
///     NotificationCard.lines(for: model, source: "a.apns")
///     // ["a.apns", "  Silver Salmon Creek", "  ───────────────────", "  You are within 5 miles of ...",
///     //  "  Lake Clark National Park and Preserve, Alaska", "  landmark #1: Silver Salmon Creek (id 1002)"]
enum NotificationCard {
    static func lines(for model: NotificationViewModel, source: String) -> [String] {
        let title = TerminalText.safe(model.title)
        var lines = [TerminalText.safe(source), "  " + title]
        lines.append("  " + String(repeating: "─", count: min(max(title.count, 8), 60)))
        lines.append("  " + TerminalText.safe(model.message))
        if let landmark = model.landmark {
            let place = [landmark.park, landmark.state].compactMap { $0 }.filter { !$0.isEmpty }
            if !place.isEmpty { lines.append("  " + TerminalText.safe(place.joined(separator: ", "))) }
            let index = model.landmarkIndex.map { " #\($0)" } ?? ""
            lines.append("  landmark\(index): \(TerminalText.safe(landmark.name)) (id \(landmark.id))")
        } else {
            lines.append("  (no landmark)")
        }
        return lines
    }
}
