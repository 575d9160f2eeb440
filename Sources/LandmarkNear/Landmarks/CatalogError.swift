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

    public init(source: String, entry: Int? = nil, id: Int? = nil, reason: String, kind: ErrorKind = .badData) {
        self.source = source
        self.entry = entry
        self.id = id
        self.reason = reason
        self.kind = kind
    }

    /// The catalog file itself cannot be read.
    init(_ error: InputError) {
        self.init(source: error.source, reason: error.reason, kind: error.kind)
    }

    public var description: String {
        var text = "\(source): "
        if let entry {
            text += "entry \(entry)"
            if let id { text += " (id \(id))" }
            text += " "
        }
        return text + reason
    }
}
