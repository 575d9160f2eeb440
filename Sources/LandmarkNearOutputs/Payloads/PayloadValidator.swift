@_spi(Inlining) import LandmarkNearCore

/// Checks any notification payload against the rules of APNs and `xcrun simctl push`:
/// a JSON object with an `aps` dictionary, at most 4096 bytes, the standard `aps` keys well
/// typed, and a non-empty `"Simulator Target Bundle"` when present. Unknown `aps` keys are
/// warnings; everything else found is an error with its JSON path.
///
///     let problems = PayloadValidator.validate(Array(#"{"aps":{"badge":"3"}}"#.utf8))
///     problems.map(\.description)   // ["$.aps.badge: must be a non-negative integer, got \"3\""]
package enum PayloadValidator {
    static let alertStringKeys = [
        "title", "subtitle", "body", "launch-image", "title-loc-key", "subtitle-loc-key",
        "loc-key", "action-loc-key", "summary-arg",
    ]
    static let locArgs = [("title-loc-args", "title-loc-key"), ("subtitle-loc-args", "subtitle-loc-key"), ("loc-args", "loc-key")]
    static let interruptionLevels = ["passive", "active", "time-sensitive", "critical"]
    static let apsStringKeys = ["thread-id", "category", "target-content-id", "filter-criteria"]
    /// Keys of `aps` that Apple documents for other notification kinds (Live Activities, summaries).
    static let otherKnownAPSKeys: Set<String> = [
        "timestamp", "event", "content-state", "stale-date", "dismissal-date",
        "attributes-type", "attributes", "input-push-token",
        "input-push-channel",
    ]

    /// Problems of a payload given as its bytes (as a file holds it). Whitespace around the
    /// document does not count towards the 4096 bytes.
    package static func validate(_ bytes: [UInt8]) -> [PayloadProblem] {
        var start = 0
        var end = bytes.count
        var problems: [PayloadProblem] = []
        if ByteOrderMark.length(of: bytes) > 0 {
            start = ByteOrderMark.length(of: bytes)
            problems.append(
                PayloadProblem(
                    path: JSONPath.root, message: "starts with a UTF-8 byte-order mark; send the payload without it",
                    severity: .warning))
        }
        while start < end, ASCIIBlanks.whitespace.contains(bytes[start]) { start += 1 }
        while end > start, ASCIIBlanks.whitespace.contains(bytes[end - 1]) { end -= 1 }
        if start == end {
            return problems + [PayloadProblem(path: JSONPath.root, message: "is empty, not a JSON payload")]
        }
        let value: JSONValue
        do {
            value = try JSONParser.parse(bytes[start..<end])
        } catch {
            return problems + [
                PayloadProblem(path: JSONPath.root, message: "not JSON: invalid JSON at byte \(start + error.offset): \(error.reason)")
            ]
        }
        return problems + validate(value, byteCount: end - start)
    }

    /// Problems of a parsed payload whose serialized size is `byteCount`.
    static func validate(_ value: JSONValue, byteCount: Int) -> [PayloadProblem] {
        var problems: [PayloadProblem] = []
        func error(_ path: String, _ message: String) { problems.append(PayloadProblem(path: path, message: message)) }
        func warning(_ path: String, _ message: String) {
            problems.append(PayloadProblem(path: path, message: message, severity: .warning))
        }
        if byteCount > APNsPayload.maximumBytes {
            var message = "the payload is \(byteCount) bytes, more than the \(APNsPayload.maximumBytes) APNs accepts"
            let compact = JSONWriter.serialize(value).utf8.count
            if compact < byteCount {
                message += " (\(compact) bytes written compactly)"
            }
            error(JSONPath.root, message)
        }
        guard case .object(let root) = value else {
            error(JSONPath.root, "must be a JSON object, got \(value.typeDescription)")
            return problems
        }
        if let bundle = root["Simulator Target Bundle"] {
            let path = JSONPath.member("Simulator Target Bundle", of: JSONPath.root)
            if let text = bundle.stringValue {
                if text.isEmpty { error(path, "must be a non-empty bundle identifier") }
            } else {
                error(path, "must be a string (a bundle identifier), got \(JSONPath.excerpt(bundle))")
            }
        }
        let apsPath = JSONPath.member("aps", of: JSONPath.root)
        guard let apsValue = root["aps"] else {
            error(apsPath, "is missing: a payload needs an \"aps\" dictionary")
            return problems
        }
        guard case .object(let aps) = apsValue else {
            error(apsPath, "must be a dictionary, got \(JSONPath.excerpt(apsValue))")
            return problems
        }
        var seen: Set<String> = []
        for (key, member) in aps.members {
            let path = JSONPath.member(key, of: apsPath)
            if !seen.insert(key).inserted {
                warning(path, "appears more than once; the last value counts")
            }
            switch key {
            case "alert":
                checkAlert(member, path: path, error: error, warning: warning)
            case "badge":
                if !isInteger(member, in: 0...9_007_199_254_740_992) {
                    error(path, "must be a non-negative integer, got \(JSONPath.excerpt(member))")
                }
            case "sound":
                checkSound(member, path: path, error: error, warning: warning)
            case "content-available", "mutable-content":
                if !isInteger(member, in: 1...1) {
                    error(path, "must be 1 (leave the key out otherwise), got \(JSONPath.excerpt(member))")
                }
            case "interruption-level":
                if !interruptionLevels.contains(member.stringValue ?? "\u{0}") {
                    error(path, "must be one of \(interruptionLevels.joined(separator: ", ")), got \(JSONPath.excerpt(member))")
                }
            case "relevance-score":
                if !isNumber(member, in: 0...1) {
                    error(path, "must be a number from 0 to 1, got \(JSONPath.excerpt(member))")
                }
            case _ where apsStringKeys.contains(key):
                if member.stringValue == nil {
                    error(path, "must be a string, got \(JSONPath.excerpt(member))")
                }
            case _ where otherKnownAPSKeys.contains(key):
                break
            default:
                warning(path, "is not a standard aps key (custom data belongs outside \"aps\")")
            }
        }
        return problems
    }

    private static func checkAlert(
        _ alert: JSONValue, path: String,
        error: (String, String) -> Void, warning: (String, String) -> Void
    ) {
        if alert.stringValue != nil { return }
        guard case .object(let object) = alert else {
            error(path, "must be a string or a dictionary, got \(JSONPath.excerpt(alert))")
            return
        }
        for (key, member) in object.members {
            let memberPath = JSONPath.member(key, of: path)
            if alertStringKeys.contains(key) {
                if member.stringValue == nil {
                    error(memberPath, "must be a string, got \(JSONPath.excerpt(member))")
                }
            } else if let pair = locArgs.first(where: { $0.0 == key }) {
                if case .array(let elements) = member {
                    for (index, element) in elements.enumerated() where element.stringValue == nil {
                        error(JSONPath.element(index, of: memberPath), "must be a string, got \(JSONPath.excerpt(element))")
                    }
                } else {
                    error(memberPath, "must be an array of strings, got \(JSONPath.excerpt(member))")
                }
                if object[pair.1] == nil {
                    error(memberPath, "is only allowed alongside \"\(pair.1)\", which is missing")
                }
            } else {
                warning(memberPath, "is not a standard alert key")
            }
        }
    }

    private static func checkSound(
        _ sound: JSONValue, path: String,
        error: (String, String) -> Void, warning: (String, String) -> Void
    ) {
        if sound.stringValue != nil { return }
        guard case .object(let object) = sound else {
            error(path, "must be a string or a dictionary, got \(JSONPath.excerpt(sound))")
            return
        }
        for (key, member) in object.members {
            let memberPath = JSONPath.member(key, of: path)
            switch key {
            case "critical":
                if member.boolValue == nil && !isInteger(member, in: 0...1) {
                    error(memberPath, "must be 0, 1 or a boolean, got \(JSONPath.excerpt(member))")
                }
            case "name":
                if member.stringValue == nil {
                    error(memberPath, "must be a string, got \(JSONPath.excerpt(member))")
                }
            case "volume":
                if !isNumber(member, in: 0...1) {
                    error(memberPath, "must be a number from 0 to 1, got \(JSONPath.excerpt(member))")
                }
            default:
                warning(memberPath, "is not a standard sound key")
            }
        }
        if object["name"] == nil {
            warning(JSONPath.member("name", of: path), "is missing: a sound dictionary names its sound file")
        }
    }

    private static func isInteger(_ value: JSONValue, in range: ClosedRange<Double>) -> Bool {
        guard case .number(let number) = value, number == number.rounded() else { return false }
        return range.contains(number)
    }

    private static func isNumber(_ value: JSONValue, in range: ClosedRange<Double>) -> Bool {
        guard case .number(let number) = value else { return false }
        return range.contains(number)
    }
}
