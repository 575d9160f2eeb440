/// A duration written as a number with `s`, `m`, `h` or `d` (`90s`, `30m`, `1h`); `0` alone
/// means none (SPEC §4, `--cooldown`).
///
///     try TimeSpan(parsing: "30m").seconds   // 1800
public struct TimeSpan: Sendable, Hashable, CustomStringConvertible {
    public var seconds: Double

    public init(seconds: Double) { self.seconds = seconds }

    public init(parsing text: String) throws(UnitParseError) {
        let trimmed = ASCIIBlanks.spacesAndTabs.trimming(text).lowercased()
        if let zero = Double(trimmed), zero == 0 { self.seconds = 0; return }
        let units: [(String, Double)] = [("s", 1), ("m", 60), ("h", 3600), ("d", 86400)]
        guard let (suffix, scale) = units.first(where: { trimmed.hasSuffix($0.0) }) else {
            throw UnitParseError("\"\(text)\" needs a unit: s, m, h or d (e.g. 90s, 30m, 1h), or 0 to disable")
        }
        let number = trimmed.dropLast(suffix.count)
        guard let value = Double(number), value.isFinite, value >= 0,
              number.allSatisfy({ $0.isNumber || $0 == "." }) else {
            throw UnitParseError("\"\(text)\" is not a non-negative number with a unit (e.g. 90s, 30m, 1h)")
        }
        self.seconds = value * scale
    }

    public static let oneHour = TimeSpan(seconds: 3600)

    public var description: String { "\(JSONWriter.number(seconds))s" }
}

import Foundation
