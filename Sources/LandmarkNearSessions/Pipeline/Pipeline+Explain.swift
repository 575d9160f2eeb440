@_spi(Inlining) import LandmarkNearCore
import LandmarkNearEngine
import LandmarkNearOutputs

/// `--explain`: for each fix, one line on stderr saying why it did or did not notify.
extension Pipeline {
    func explain(_ fix: Fix, disposition: FixDisposition, location: String) {
        var line = "explain: \(location) device \(JSONWriter.quoted(fix.device))"
        if let time = fix.time { line += " at \(time.rfc3339)" }
        line += ": "
        switch disposition {
        case .dropped(.accuracy):
            line +=
                "dropped, accuracy \(JSONWriter.number(fix.accuracy ?? 0)) m is worse than the maximum accuracy \(JSONWriter.number(options.engine.maxAccuracy)) m"
        case .dropped(.stale):
            line +=
                engine.lastStaleRepeatedTime
                ? "dropped as stale, same time as the device's latest used fix (one moment reported twice, nothing lost)"
                : "dropped as stale, its time is earlier than the device's latest used fix"
        case .dropped(.invalid):
            line += "dropped, \(fix.coordinate.invalidReason ?? "invalid coordinate")"
        case .used:
            if events.isEmpty {
                if let nearest = engine.nearestFavorite(of: fix.device, to: fix.coordinate) {
                    let name = catalog[nearest.landmarkIndex].name
                    let distance = JSONWriter.number(ReportedDistance.millimetres(nearest.distance))
                    if nearest.isInside {
                        line +=
                            "no alert, already inside \(JSONWriter.quoted(name)) (\(distance) m; exit beyond \(JSONWriter.number(options.engine.radius + options.engine.hysteresis)) m)"
                    } else {
                        line +=
                            "no alert, nearest favourite \(JSONWriter.quoted(name)) is \(distance) m away (radius \(JSONWriter.number(options.engine.radius)) m)"
                    }
                } else {
                    line += "no alert, the device has no favourite landmarks"
                }
            } else {
                line += events.map { event in
                    let name = JSONWriter.quoted(catalog[event.landmarkIndex].name)
                    let distance = JSONWriter.number(ReportedDistance.millimetres(event.distance))
                    switch (event.kind, event.suppression) {
                    case (.exit, _): return "exit \(name) at \(distance) m"
                    case (.enter, nil): return "enter \(name) at \(distance) m, notified"
                    case (.enter, .cooldown?):
                        return
                            "enter \(name) at \(distance) m, suppressed: notified for it less than the cooldown \(JSONWriter.number(options.engine.cooldown)) s ago"
                    case (.enter, .profile?):
                        return "enter \(name) at \(distance) m, suppressed: the device's profile has prefersNotifications false"
                    }
                }.joined(separator: "; ")
            }
        }
        diagnostics.writeLine(TerminalText.safe(line))
    }
}
