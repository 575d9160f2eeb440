import Foundation

/// A duration written as a number with `s`, `m`, `h` or `d` (`90s`, `30m`, `1h`); `0` alone
/// means none (docs/reference/engine.md, `--cooldown`).
///
///     try TimeSpan(parsing: "30m").seconds   // 1800
package struct TimeSpan: Sendable, Hashable, CustomStringConvertible {
    package var seconds: Double

    package init(seconds: Double) { self.seconds = seconds }

    /// Parses `0`, or a non-negative number with `s`, `m`, `h` or `d` or one of their words
    /// (`sec`, `second(s)`, `min`, `minute(s)`, `hr`, `hour(s)`, `day(s)`), in any case, with
    /// or without a space: `90s`, `30 min`, `1H`.
    package init(parsing text: String) throws(UnitParseError) {
        guard let quantity = QuantityText(text), let value = Double(quantity.number), value.isFinite else {
            throw UnitParseError("\(TerminalText.quoted(text)) is not a non-negative number with a unit (e.g. 90s, 30m, 1h)")
        }
        if quantity.unit.isEmpty, value == 0 { self.seconds = 0; return }
        guard let scale = TimeSpan.unitWords[quantity.unit] else {
            throw UnitParseError(
                quantity.unit.isEmpty
                    ? "\(TerminalText.quoted(text)) needs a unit: s, m, h or d (e.g. 90s, 30m, 1h), or 0 to disable"
                    : "\(TerminalText.quoted(text)): unknown unit \(TerminalText.singleQuoted(quantity.unit)); use s, m, h or d (e.g. 90s, 30m, 1h)"
            )
        }
        self.seconds = value * scale
    }

    private static let unitWords: [String: Double] = [
        "s": 1, "sec": 1, "secs": 1, "second": 1, "seconds": 1,
        "m": 60, "min": 60, "mins": 60, "minute": 60, "minutes": 60,
        "h": 3600, "hr": 3600, "hrs": 3600, "hour": 3600, "hours": 3600,
        "d": 86400, "day": 86400, "days": 86400,
    ]

    package static let oneHour = TimeSpan(seconds: 3600)

    package var description: String { "\(JSONWriter.number(seconds))s" }
}
