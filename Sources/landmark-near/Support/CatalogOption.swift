import LandmarkNear

extension ArgumentScanner {
    /// The catalog named by `--landmarks FILE`, or the embedded twelve.
    func catalog() throws(CommandFailure) -> LandmarkCatalog {
        guard let path = value("landmarks") else { return .embedded }
        do {
            return try CatalogLoader.load(path: path)
        } catch {
            throw CommandFailure(status: error.isMissingFile ? .noInput : .dataError,
                                 message: "landmark-near: \(error.description)")
        }
    }
}
