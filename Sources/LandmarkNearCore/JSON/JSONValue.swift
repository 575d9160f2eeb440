/// A parsed JSON document that keeps object keys in their original order.
///
/// Numbers are kept as `Double` (enough for coordinates, ids up to 2^53 and payload
/// fields); `JSONValue.integer` tells whether a number is integral (`1.0` counts as 1).
///
///     let value = try JSONParser.parse(#"{"aps":{"alert":"Hi"},"landmarkIndex":1}"#)
///     value["landmarkIndex"]?.integer   // 1
package enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    /// The member `key` when this is an object, else nil.
    subscript(key: String) -> JSONValue? {
        if case .object(let object) = self { return object[key] }
        return nil
    }

    package var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    package var doubleValue: Double? {
        if case .number(let d) = self { return d }
        return nil
    }

    package var boolValue: Bool? {
        if case .bool(let b) = self { return b }
        return nil
    }

    package var objectValue: JSONObject? {
        if case .object(let o) = self { return o }
        return nil
    }

    package var arrayValue: [JSONValue]? {
        if case .array(let a) = self { return a }
        return nil
    }

    package var isNull: Bool { self == .null }

    /// The number as an `Int` when it is integral and representable (`1.0` gives 1).
    package var integer: Int? {
        guard case .number(let d) = self, d.isFinite, d == d.rounded(),
            abs(d) <= 9_007_199_254_740_992
        else { return nil }
        return Int(d)
    }

    /// A short name of the JSON type, for error messages ("a string", "an object").
    package var typeDescription: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}

/// A JSON object's members in document order. A key given twice resolves to its last value,
/// as most JSON readers do.
package struct JSONObject: Sendable, Equatable {
    package var members: [(key: String, value: JSONValue)]

    package init(_ members: [(key: String, value: JSONValue)] = []) {
        self.members = members
    }

    package subscript(key: String) -> JSONValue? {
        members.last(where: { $0.key == key })?.value
    }

    /// The value of the first of `keys` that is present (for key aliases like `lat`/`latitude`).
    package func first(of keys: [String]) -> (key: String, value: JSONValue)? {
        for key in keys {
            if let value = self[key] { return (key, value) }
        }
        return nil
    }

    package var keys: [String] { members.map(\.key) }

    package static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        lhs.members.count == rhs.members.count
            && zip(lhs.members, rhs.members).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    }
}
