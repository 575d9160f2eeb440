/// A distance as the user wrote it (`5mi`, `8km`, `500m`, `1000ft`): the number and unit are
/// kept so the payload can say "5 miles" rather than "8046.72 m".
///
///     let radius = try Length(parsing: "5mi")
///     radius.meters        // 8046.72
public struct Length: Sendable, Hashable, CustomStringConvertible {
    public enum Unit: String, Sendable, CaseIterable {
        case miles = "mi", kilometers = "km", meters = "m", feet = "ft"

        public var meters: Double {
            switch self {
            case .miles: return 1609.344
            case .kilometers: return 1000
            case .meters: return 1
            case .feet: return 0.3048
            }
        }
    }

    public var value: Double
    public var unit: Unit
    /// The number as written (minus a trailing ".0"), for phrases like "2.5 miles".
    public var writtenValue: String

    public init(value: Double, unit: Unit) {
        self.value = value
        self.unit = unit
        self.writtenValue = JSONWriter.number(value)
    }

    public var meters: Double { value * unit.meters }

    /// Parses a non-negative number followed by `mi`, `km`, `m` or `ft`.
    public init(parsing text: String) throws(UnitParseError) {
        let trimmed = String(ASCIIBlanks.spacesAndTabs.trimming(text))
        guard let unit = Unit.allCases.sorted(by: { $0.rawValue.count > $1.rawValue.count })
            .first(where: { trimmed.lowercased().hasSuffix($0.rawValue) }) else {
            throw UnitParseError("\"\(text)\" needs a unit: mi, km, m or ft (e.g. 5mi, 8km, 500m)")
        }
        let number = String(ASCIIBlanks.spacesAndTabs.trimming(trimmed.dropLast(unit.rawValue.count)))
        guard let value = Double(number), value.isFinite, value >= 0,
              number.allSatisfy({ $0.isNumber || $0 == "." }) else {
            throw UnitParseError("\"\(text)\" is not a non-negative number with a unit (e.g. 5mi, 8km, 500m)")
        }
        self.init(value: value, unit: unit)
        self.writtenValue = Length.trimmed(number)
    }

    /// "5.0" -> "5", "2.50" -> "2.5", "007" -> "7".
    private static func trimmed(_ number: String) -> String {
        var text = number
        if text.contains(".") {
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
        }
        while text.count > 1 && text.hasPrefix("0") && !text.hasPrefix("0.") { text.removeFirst() }
        if text.hasPrefix(".") { text = "0" + text }
        return text.isEmpty ? "0" : text
    }

    public static let fiveMiles = Length(value: 5, unit: .miles)
    public static let quarterMile = Length(value: 0.25, unit: .miles)

    public var description: String { "\(writtenValue)\(unit.rawValue)" }
}

/// A value given on the command line that is not a valid length or duration.
public struct UnitParseError: LandmarkNearError, Sendable, Equatable {
    public var description: String
    public var kind: ErrorKind { .usage }
    public init(_ description: String) { self.description = description }
}

import Foundation
