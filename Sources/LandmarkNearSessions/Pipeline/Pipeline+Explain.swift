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
            var parts: [String] = []
            if events.isEmpty {
                if let nearest = engine.nearestFavorite(of: fix.device, to: fix.coordinate) {
                    let name = catalog[nearest.landmarkIndex].name
                    let distance = JSONWriter.number(ReportedDistance.millimetres(nearest.distance))
                    if nearest.isInside {
                        parts.append(
                            "no alert, already inside \(JSONWriter.quoted(name)) (\(distance) m; exit beyond \(JSONWriter.number(exitLimit(fix))) m\(policyNote(fix)))"
                        )
                    } else {
                        parts.append(
                            "no alert, nearest favourite \(JSONWriter.quoted(name)) is \(Self.spoken(nearest.distance)) away (radius \(JSONWriter.number(options.engine.radius)) m\(policyNote(fix)))"
                        )
                    }
                } else {
                    parts.append("no alert, the device has no favourite landmarks")
                }
            } else {
                parts += events.map { describe($0, of: fix) }
            }
            parts += engine.motionNotes.compactMap(describe)
            line += parts.joined(separator: "; ")
        }
        diagnostics.writeLine(TerminalText.safe(line))
    }

    /// A distance as a person says it: metres to the millimetre up to 10 km ("650.259 m"),
    /// kilometres to the metre beyond ("3282.833 km"), as `nearest` prints them.
    static func spoken(_ meters: Double) -> String {
        let millimetres = ReportedDistance.millimetres(meters)
        guard millimetres >= 10_000 else { return "\(JSONWriter.number(millimetres)) m" }
        return "\(JSONWriter.number(millimetres.rounded() / 1_000)) km"
    }

    private func describe(_ event: ProximityEvent, of fix: Fix) -> String {
        let name = JSONWriter.quoted(catalog[event.landmarkIndex].name)
        let distance = JSONWriter.number(ReportedDistance.millimetres(event.distance))
        let what =
            event.via == .crossing
            ? "passed \(name) between the fixes at \(event.time?.rfc3339 ?? "?"), \(distance) m away: enter"
            : "\(event.kind.rawValue) \(name) at \(distance) m"
        switch (event.kind, event.suppression) {
        case (.exit, _): return what + policyNote(nil)
        case (.dwell, nil): return "dwell \(name): inside since \(event.enteredAt?.rfc3339 ?? "?") (\(distance) m now), notified"
        case (.enter, nil): return what + ", notified"
        case (_, .cooldown?):
            return what + ", suppressed: notified for it less than the cooldown \(JSONWriter.number(options.engine.cooldown)) s ago"
        case (_, .profile?): return what + ", suppressed: the device's profile has prefersNotifications false"
        case (_, .quiet?):
            // The instant the decision was made at: a crossing's interpolated time, else the fix's.
            guard let quietHours = engine.quietHours(ofDevice: fix.device), let time = event.time ?? fix.time else {
                return what + ", suppressed: quiet hours"
            }
            let local = QuietHours.clock(quietHours.localMinuteOfDay(utcSeconds: time.seconds))
            return what + ", suppressed: quiet hours \(quietHours), local \(local)"
        case (_, .dwell?):
            return (event.time ?? fix.time) == nil
                ? what + ", not notified: an untimed enter never dwells (--dwell)"
                : what + ", waiting to dwell \(JSONWriter.number(options.engine.dwell ?? 0)) s before it notifies"
        }
    }

    private func describe(_ note: MotionNote) -> String? {
        switch note {
        case .noPassSearched(.untimed): return "no pass searched: the fix has no time"
        case .noPassSearched(.noPrevious): return nil
        case .noPassSearched(.gap(let seconds, let maximum)):
            return
                "no pass searched: \(JSONWriter.number(seconds)) s since the previous fix, over --crossing \(JSONWriter.number(maximum)) s"
        case .passed: return nil  // told with its event
        case .missed(let index, let distance, let radius):
            return
                "passed \(JSONWriter.quoted(catalog[index].name)) at \(JSONWriter.number(ReportedDistance.millimetres(distance))) m between the fixes, beyond its radius \(JSONWriter.number(radius)) m"
        case .dwellPending(let index, let due):
            return "dwell in \(JSONWriter.quoted(catalog[index].name)) fires on the first fix at or after \(due.rfc3339)"
        }
    }

    /// The exit limit for `fix` under the accuracy policy.
    private func exitLimit(_ fix: Fix) -> Double {
        let engine = options.engine
        return engine.accuracyPolicy.exitLimit(radius: engine.radius, hysteresis: engine.hysteresis, accuracy: fix.accuracy ?? 0)
    }

    /// The policy's part in a reason, when it is not `center`.
    private func policyNote(_ fix: Fix?) -> String {
        let policy = options.engine.accuracyPolicy
        guard policy != .center else { return "" }
        let accuracy = fix.map { "accuracy \(JSONWriter.number($0.accuracy ?? 0)) m" } ?? "the fix's accuracy"
        return policy == .sure
            ? "; --accuracy-policy sure: enters when distance + \(accuracy) <= radius, exits when distance - it > radius + hysteresis"
            : "; --accuracy-policy possible: enters when distance - \(accuracy) <= radius, exits when distance - it > radius + hysteresis"
    }
}
