@_spi(Inlining) import LandmarkNearCore
import LandmarkNearOutputs

/// Turns a notification payload into the view model the tutorial's watch app shows (docs/reference/parse.md):
/// `aps.alert.title` or "Unknown Landmark", `aps.alert.body` (or a plain-string `aps.alert`) or
/// "You are within 5 miles of one of your favorite landmarks.", and the landmark that
/// `landmarkIndex` selects from the catalog. Localized alerts (`title-loc-key`, `loc-key`)
/// are resolved from a `LocalizedStrings` table, falling back to the key itself.
///
///     let (model, warnings) = try PayloadParser.parse(Array(#"{"aps":{"alert":"Hi"},"landmarkIndex":1}"#.utf8),
///                                                     source: "a.apns", catalog: .embedded, strings: nil)
///     model.message          // "Hi"
///     model.landmark?.name   // "Silver Salmon Creek"
public enum PayloadParser {
    /// Larger inputs are refused unread: an APNs payload is at most 4096 bytes.
    public static let maximumInputBytes = 1 << 20

    package static func parse(
        _ bytes: [UInt8], source: String, catalog: LandmarkCatalog,
        strings: LocalizedStrings?
    ) throws(PayloadParseError) -> (NotificationViewModel, warnings: [String]) {
        if bytes.count > maximumInputBytes {
            throw PayloadParseError(
                source: source,
                reason: "is \(bytes.count) bytes, far too large for a notification payload "
                    + "(APNs allows \(APNsPayload.maximumBytes); inputs over \(maximumInputBytes) bytes are refused)")
        }
        // A UTF-8 byte-order mark (some editors write one) is not part of the document.
        let skipped = ByteOrderMark.length(of: bytes)
        let bytes = bytes[skipped...]
        if ASCIIBlanks.whitespace.isBlank(bytes) {
            throw PayloadParseError(source: source, reason: "is empty, not a JSON payload")
        }
        let document: JSONValue
        do {
            document = try JSONParser.parse(bytes)
        } catch {
            throw PayloadParseError(source: source, reason: "not JSON: invalid JSON at byte \(skipped + error.offset): \(error.reason)")
        }
        var parser = Reader(source: source, strings: strings)
        let model = try parser.read(document, catalog: catalog)
        return (model, parser.warnings)
    }

    /// The state of one parse: where warnings go.
    private struct Reader {
        let source: String
        let strings: LocalizedStrings?
        var warnings: [String] = []

        init(source: String, strings: LocalizedStrings?) {
            self.source = source
            self.strings = strings
        }

        func failure(_ path: String, _ reason: String) -> PayloadParseError {
            PayloadParseError(source: source, path: path, reason: reason)
        }

        mutating func read(_ document: JSONValue, catalog: LandmarkCatalog) throws(PayloadParseError) -> NotificationViewModel {
            guard case .object(let root) = document else {
                throw failure(JSONPath.root, "must be a JSON object, got \(document.typeDescription)")
            }
            var model = NotificationViewModel()
            let apsPath = JSONPath.member("aps", of: JSONPath.root)
            switch root["aps"] {
            case nil, .null?:
                break
            case .object(let aps)?:
                try readAlert(aps["alert"], path: JSONPath.member("alert", of: apsPath), into: &model)
            case let other?:
                throw failure(apsPath, "must be a dictionary, got \(JSONPath.excerpt(other))")
            }
            try readLandmark(root["landmarkIndex"], catalog: catalog, into: &model)
            return model
        }

        private mutating func readAlert(_ alert: JSONValue?, path: String, into model: inout NotificationViewModel)
            throws(PayloadParseError)
        {
            switch alert {
            case nil, .null?:
                return
            case .string(let body)?:
                model.message = body
            case .object(let object)?:
                if let title = try string(object, "title", path) { model.title = title }
                if let body = try string(object, "body", path) { model.message = body }
                if let title = try localized(object, key: "title-loc-key", arguments: "title-loc-args", path) { model.title = title }
                if let body = try localized(object, key: "loc-key", arguments: "loc-args", path) { model.message = body }
            case let other?:
                throw failure(path, "must be a string or a dictionary, got \(JSONPath.excerpt(other))")
            }
        }

        /// A string member (null counts as missing).
        private func string(_ object: JSONObject, _ key: String, _ path: String) throws(PayloadParseError) -> String? {
            switch object[key] {
            case nil, .null?: return nil
            case .string(let text)?: return text
            case let other?: throw failure(JSONPath.member(key, of: path), "must be a string, got \(JSONPath.excerpt(other))")
            }
        }

        /// The text of a `*-loc-key` with its `*-loc-args`, from the table or else the key itself.
        private mutating func localized(
            _ object: JSONObject, key: String, arguments argumentsKey: String,
            _ path: String
        ) throws(PayloadParseError) -> String? {
            guard let locKey = try string(object, key, path) else { return nil }
            var arguments: [String] = []
            let argumentsPath = JSONPath.member(argumentsKey, of: path)
            switch object[argumentsKey] {
            case nil, .null?:
                break
            case .array(let elements)?:
                for (index, element) in elements.enumerated() {
                    guard let text = element.stringValue else {
                        throw failure(JSONPath.element(index, of: argumentsPath), "must be a string, got \(JSONPath.excerpt(element))")
                    }
                    arguments.append(text)
                }
            case let other?:
                throw failure(argumentsPath, "must be an array of strings, got \(JSONPath.excerpt(other))")
            }
            if let text = strings?.format(locKey, arguments: arguments) { return text }
            let why = strings == nil ? "no strings table given" : "the strings table has no such key"
            warnings.append("\(source): \(JSONPath.member(key, of: path)): \(JSONWriter.quoted(locKey)): \(why); showing the key itself")
            return LocalizedStrings.fill(locKey, arguments: arguments)
        }

        private mutating func readLandmark(
            _ value: JSONValue?, catalog: LandmarkCatalog,
            into model: inout NotificationViewModel
        ) throws(PayloadParseError) {
            let path = JSONPath.member("landmarkIndex", of: JSONPath.root)
            switch value {
            case nil, .null?:
                return
            case .number(let number)?:
                guard number.isFinite, number == number.rounded() else {
                    throw failure(path, "must be an integer, got \(JSONPath.excerpt(.number(number)))")
                }
                let range =
                    "the catalog has \(catalog.count) landmark\(catalog.count == 1 ? "" : "s")"
                    + (catalog.isEmpty ? "" : " (0...\(catalog.count - 1))")
                guard let index = value?.integer else {
                    warnings.append("\(source): \(path): \(JSONWriter.number(number)) is out of range: \(range); showing no landmark")
                    return
                }
                model.landmarkIndex = index
                if let landmark = catalog.landmark(at: index) {
                    model.landmark = landmark
                } else {
                    warnings.append("\(source): \(path): \(index) is out of range: \(range); showing no landmark")
                }
            case let other?:
                throw failure(path, "must be an integer, got \(JSONPath.excerpt(other))")
            }
        }
    }
}
