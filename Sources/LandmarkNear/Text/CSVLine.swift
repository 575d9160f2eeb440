/// Splits one CSV line into fields (RFC 4180 quoting: `"a, b"` and `""` inside quotes).
///
///     CSVLine.fields(of: #"1,"Lake ""Blue""",3"#)   // ["1", "Lake \"Blue\"", "3"]
public enum CSVLine {
    public static func fields(of line: Substring, separator: Character = ",") -> [String] {
        var fields: [String] = []
        var field = ""
        var inQuotes = false
        var index = line.startIndex
        while index < line.endIndex {
            let char = line[index]
            if inQuotes {
                if char == "\"" {
                    let next = line.index(after: index)
                    if next < line.endIndex && line[next] == "\"" {
                        field.append("\"")
                        index = next
                    } else {
                        inQuotes = false
                    }
                } else {
                    field.append(char)
                }
            } else if char == "\"" && field.isEmpty {
                inQuotes = true
            } else if char == separator {
                fields.append(field)
                field = ""
            } else {
                field.append(char)
            }
            index = line.index(after: index)
        }
        fields.append(field)
        return fields
    }

    public static func fields(of line: String, separator: Character = ",") -> [String] {
        fields(of: line[...], separator: separator)
    }

    /// The header name folded for matching: trimmed, lower-cased, BOM removed.
    public static func normalizedHeader(_ name: String) -> String {
        var text = name
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        return text.trimmingSpacesAndTabs.lowercased()
    }

    /// Parses a boolean cell: true/false, 1/0, yes/no (any case).
    public static func boolean(_ cell: String) -> Bool? {
        switch cell.trimmingSpacesAndTabs.lowercased() {
        case "true", "1", "yes", "y", "t": return true
        case "false", "0", "no", "n", "f", "": return false
        default: return nil
        }
    }
}

import Foundation
