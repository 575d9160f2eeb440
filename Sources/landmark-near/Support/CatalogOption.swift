import LandmarkNear

extension ArgumentScanner {
    /// The catalog named by `--landmarks FILE`, or the embedded twelve.
    func catalog(command: String) throws(CommandFailure) -> LandmarkCatalog {
        guard let path = value("landmarks") else { return .embedded }
        do {
            return try CatalogLoader.load(path: path)
        } catch {
            throw CommandFailure(error, context: "\(command): --landmarks ")
        }
    }
}
