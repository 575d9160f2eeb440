/// A catalog that cannot be used, with what a user needs to fix it.
public struct CatalogError: Error, Sendable, Equatable, CustomStringConvertible {
    public var source: String
    /// 0-based entry (for CSV: the data row), when the problem is one entry.
    public var entry: Int?
    public var id: Int?
    public var reason: String
    /// The catalog file does not exist (the CLI exits 66 for it).
    public var isMissingFile: Bool

    public init(source: String, entry: Int? = nil, id: Int? = nil, reason: String, isMissingFile: Bool = false) {
        self.source = source
        self.entry = entry
        self.id = id
        self.reason = reason
        self.isMissingFile = isMissingFile
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
