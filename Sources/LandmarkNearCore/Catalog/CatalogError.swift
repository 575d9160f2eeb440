/// A catalog that cannot be used, with what a user needs to fix it: a refused entry
/// (`.badData`), or a file that cannot be opened (`.missingInput`) or read (`.io`).
///
///     CatalogError(source: "places.csv", entry: 3, id: 7, reason: "has no name").description
///     // "places.csv: entry 3 (id 7) has no name"
public struct CatalogError: LandmarkNearError, Sendable, Equatable {
    public var source: String
    /// 0-based entry (for CSV: the data row), when the problem is one entry.
    public var entry: Int?
    public var id: Int?
    public var reason: String
    public var kind: ErrorKind
    /// Where the entry is in the file: `line 5` (CSV), `line 3, column 5` (JSON).
    package var location: String?
    /// The catalog's other problems (docs/reference/catalogs.md: up to 20 are listed in all), and how many more
    /// there were beyond those.
    package var otherProblems: [CatalogError] = []
    package var unlistedProblems = 0

    package init(source: String, entry: Int? = nil, id: Int? = nil, reason: String, kind: ErrorKind = .badData) {
        self.source = source
        self.entry = entry
        self.id = id
        self.reason = reason
        self.kind = kind
    }

    /// The catalog file itself cannot be read.
    package init(_ error: InputError) {
        self.init(source: error.source, reason: error.reason, kind: error.kind)
    }

    /// `places.csv: entry 3 (id 7) at line 5 has no name`; with more problems, one a line
    /// after a count, and "and N more" past 20.
    public var description: String {
        guard !otherProblems.isEmpty || unlistedProblems > 0 else { return "\(source): " + entryText }
        let total = 1 + otherProblems.count + unlistedProblems
        var lines = ["\(source): \(total) problems:", "  " + entryText] + otherProblems.map { "  " + $0.entryText }
        if unlistedProblems > 0 { lines.append("  and \(unlistedProblems) more") }
        return lines.joined(separator: "\n")
    }

    /// The problem without the source: `entry 3 (id 7) at line 5 has no name`.
    var entryText: String {
        var text = ""
        if let entry {
            text += "entry \(entry)"
            if let id { text += " (id \(id))" }
            if let location { text += " at \(location)" }
            text += " "
        }
        return text + reason
    }
}
