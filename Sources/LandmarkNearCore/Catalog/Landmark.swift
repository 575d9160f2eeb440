/// One landmark of a catalog, shaped like the SwiftUI tutorial's `landmarkData.json` entries.
///
///     let rock = Landmark(id: 1001, name: "Turtle Rock",
///                         coordinate: Coordinate(latitude: 34.011286, longitude: -116.166868),
///                         isFavorite: true)
public struct Landmark: Sendable, Hashable {
    public var id: Int
    public var name: String
    public var coordinate: Coordinate
    public var isFavorite: Bool
    public var isFeatured: Bool
    public var category: String?
    public var city: String?
    public var state: String?
    public var park: String?
    public var imageName: String?
    /// This landmark's own radius (catalog key `radius`), replacing `--radius` for it: where
    /// devices enter and exit, and the distance its payload names. nil: the run's radius.
    public var radius: Length?
    /// The place it is, when it is an area or a line (catalog `geometry`, or a CSV `wkt` cell):
    /// every distance to the landmark is then to it. nil: the landmark is its `coordinate`.
    public var shape: LandmarkShape?

    public init(
        id: Int, name: String, coordinate: Coordinate, isFavorite: Bool = false,
        isFeatured: Bool = false, category: String? = nil, city: String? = nil,
        state: String? = nil, park: String? = nil, imageName: String? = nil, radius: Length? = nil,
        shape: LandmarkShape? = nil
    ) {
        self.id = id
        self.name = name
        self.coordinate = coordinate
        self.isFavorite = isFavorite
        self.isFeatured = isFeatured
        self.category = category
        self.city = city
        self.state = state
        self.park = park
        self.imageName = imageName
        self.radius = radius
        self.shape = shape
    }
}
