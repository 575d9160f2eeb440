extension LandmarkCatalog {
    /// The twelve landmarks of Apple's SwiftUI "Landmarks" tutorial (favourites 1001, 1003,
    /// 1004), every field as its `landmarkData.json` has them (docs/reference/catalogs.md's table; "Eaking" is the
    /// tutorial's spelling), compiled in so the tool works with no catalog file at hand.
    public static let embedded: LandmarkCatalog = {
        func landmark(
            _ id: Int, _ name: String, _ latitude: Double, _ longitude: Double,
            favorite: Bool, featured: Bool, category: String, city: String,
            state: String, park: String, image: String
        ) -> Landmark {
            Landmark(
                id: id, name: name, coordinate: Coordinate(latitude: latitude, longitude: longitude),
                isFavorite: favorite, isFeatured: featured, category: category, city: city,
                state: state, park: park, imageName: image)
        }
        let landmarks = [
            landmark(
                1001, "Turtle Rock", 34.011286, -116.166868, favorite: true, featured: true,
                category: "Rivers", city: "Twentynine Palms", state: "California",
                park: "Joshua Tree National Park", image: "turtlerock"),
            landmark(
                1002, "Silver Salmon Creek", 59.980167, -152.665167, favorite: false, featured: false,
                category: "Lakes", city: "Port Alsworth", state: "Alaska",
                park: "Lake Clark National Park and Preserve", image: "silversalmoncreek"),
            landmark(
                1003, "Chilkoot Trail", 59.560551, -135.334571, favorite: true, featured: false,
                category: "Mountains", city: "Skagway", state: "Alaska",
                park: "Klondike Gold Rush National Historical Park", image: "chilkoottrail"),
            landmark(
                1004, "St. Mary Lake", 48.69423, -113.536248, favorite: true, featured: true,
                category: "Lakes", city: "Browning", state: "Montana",
                park: "Glacier National Park", image: "stmarylake"),
            landmark(
                1005, "Twin Lake", 60.641684, -153.849883, favorite: false, featured: false,
                category: "Lakes", city: "Twin Lakes", state: "Alaska",
                park: "Lake Clark National Park and Preserve", image: "twinlake"),
            landmark(
                1006, "Lake McDonald", 48.56002, -113.934831, favorite: false, featured: false,
                category: "Mountains", city: "West Glacier", state: "Montana",
                park: "Glacier National Park", image: "lakemcdonald"),
            landmark(
                1007, "Charley Rivers", 65.350021, -143.122586, favorite: false, featured: true,
                category: "Rivers", city: "Eaking", state: "Alaska",
                park: "Charley Rivers National Preserve", image: "charleyrivers"),
            landmark(
                1008, "Icy Bay", 60.089917, -141.518167, favorite: false, featured: false,
                category: "Mountains", city: "Icy Bay", state: "Alaska",
                park: "Wrangell-St. Elias National Park and Preserve", image: "icybay"),
            landmark(
                1009, "Rainbow Lake", 61.694334, -150.086103, favorite: false, featured: false,
                category: "Lakes", city: "Willow", state: "Alaska",
                park: "State Recreation Area", image: "rainbowlake"),
            landmark(
                1010, "Hidden Lake", 48.495442, -121.17799, favorite: false, featured: false,
                category: "Lakes", city: "Newhalem", state: "Washington",
                park: "North Cascades National Park", image: "hiddenlake"),
            landmark(
                1011, "Chincoteague", 37.91531, -75.383212, favorite: false, featured: false,
                category: "Rivers", city: "Chincoteague", state: "Virginia",
                park: "Chincoteague National Wildlife Refuge", image: "chincoteague"),
            landmark(
                1012, "Lake Umbagog", 44.747408, -71.056816, favorite: false, featured: true,
                category: "Lakes", city: "Errol", state: "New Hampshire",
                park: "Umbagog National Wildlife Refuge", image: "umbagog"),
        ]
        do {
            return try LandmarkCatalog(landmarks, source: "embedded landmarks")
        } catch {
            preconditionFailure("the embedded catalog is valid: \(error)")
        }
    }()
}
