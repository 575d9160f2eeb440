import Foundation

/// A distance as the user wrote it (`5mi`, `8km`, `500m`, `1000ft`): the number and unit are
/// kept so the payload can say "5 miles" rather than "8046.72 m".
///
///     let radius = try Length(parsing: "5mi")
///     radius.meters        // 8046.72
public struct Length: Sendable, Hashable, CustomStringConvertible {
    public enum Unit: String, Sendable, CaseIterable {
        case miles = "mi"
        case kilometers = "km"
        case meters = "m"
        case feet = "ft"
        /// The international nautical mile, as sailors and pilots give distances.
        case nauticalMiles = "nm"

        package var meters: Double {
            switch self {
            case .miles: return 1609.344
            case .kilometers: return 1000
            case .meters: return 1
            case .feet: return 0.3048
            case .nauticalMiles: return 1852
            }
        }
    }

    public var value: Double
    public var unit: Unit
    /// The number as written (minus a trailing ".0"), for phrases like "2.5 miles".
    package var writtenValue: String

    public init(value: Double, unit: Unit) {
        self.value = value
        self.unit = unit
        self.writtenValue = JSONWriter.number(value)
    }

    public var meters: Double { value * unit.meters }

    /// Parses a non-negative number followed by a unit: `mi`, `km`, `m`, `ft` or `nm` (nautical
    /// miles, also `nmi`), or one of their words (`mile(s)`, `kilometre(s)`/`kilometer(s)`,
    /// `metre(s)`/`meter(s)`, `foot`/`feet`), in any case, with or without a space: `5mi`,
    /// `5 miles`, `5MI`, `3nm`.
    public init(parsing text: String) throws(UnitParseError) {
        guard let quantity = QuantityText(text), let value = Double(quantity.number), value.isFinite else {
            throw UnitParseError("\(TerminalText.quoted(text)) is not a non-negative number with a unit (e.g. 5mi, 8km, 500m)")
        }
        guard let unit = Length.unitWords[quantity.unit] else {
            throw UnitParseError(
                quantity.unit.isEmpty
                    ? "\(TerminalText.quoted(text)) needs a unit: mi, km, m or ft (e.g. 5mi, 8km, 500m)"
                    : "\(TerminalText.quoted(text)): unknown unit \(TerminalText.singleQuoted(quantity.unit)); use mi, km, m, ft or nm (e.g. 5mi, 8km, 500m)"
            )
        }
        self.init(value: value, unit: unit)
        self.writtenValue = Length.trimmed(String(quantity.number))
    }

    private static let unitWords: [String: Unit] = [
        "mi": .miles, "mile": .miles, "miles": .miles,
        "km": .kilometers, "kilometre": .kilometers, "kilometres": .kilometers,
        "kilometer": .kilometers, "kilometers": .kilometers,
        "m": .meters, "metre": .meters, "metres": .meters, "meter": .meters, "meters": .meters,
        "ft": .feet, "foot": .feet, "feet": .feet,
        "nm": .nauticalMiles, "nmi": .nauticalMiles,
    ]

    /// "5.0" -> "5", "2.50" -> "2.5", "007" -> "7", "00.5" -> "0.5". On a substring, whose ends
    /// move in constant time (removing a string's first character shifts the rest, and a catalog
    /// radius of a million zeros took that a million times).
    private static func trimmed(_ number: String) -> String {
        var text = Substring(number)
        if text.contains(".") {
            while text.hasSuffix("0") { text = text.dropLast() }
            if text.hasSuffix(".") { text = text.dropLast() }
        }
        text = text.drop { $0 == "0" }
        return text.isEmpty || text.hasPrefix(".") ? "0" + text : String(text)
    }

    public static let fiveMiles = Length(value: 5, unit: .miles)
    package static let quarterMile = Length(value: 0.25, unit: .miles)

    public var description: String { "\(writtenValue)\(unit.rawValue)" }
}

/// A value given on the command line that is not a valid length or duration.
public struct UnitParseError: LandmarkNearError, Sendable, Equatable {
    public var description: String
    public var kind: ErrorKind { .usage }
    package init(_ description: String) { self.description = description }
}
