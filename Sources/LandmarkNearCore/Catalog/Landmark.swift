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

    public init(
        id: Int, name: String, coordinate: Coordinate, isFavorite: Bool = false,
        isFeatured: Bool = false, category: String? = nil, city: String? = nil,
        state: String? = nil, park: String? = nil, imageName: String? = nil, radius: Length? = nil
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
    }
}
