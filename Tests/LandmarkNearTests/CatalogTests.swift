import Testing

@_spi(Inlining) @testable import LandmarkNearCore

@Suite(.suiteTimeLimit) struct EmbeddedCatalogTests {
    @Test func embeddedHasTheTutorialTwelve() {
        let catalog = LandmarkCatalog.embedded
        #expect(catalog.count == 12)
        #expect(catalog[1].name == "Silver Salmon Creek")
        #expect(catalog.favoriteIndices.map { catalog[$0].id } == [1001, 1003, 1004])
    }

    /// docs/reference/catalogs.md's table of the tutorial's `landmarkData.json`, row by row (index = position).
    static let specTable = """
        0 | 1001 | Turtle Rock | 34.011286 | -116.166868 | true | true | Rivers | Twentynine Palms | California | Joshua Tree National Park | turtlerock
        1 | 1002 | Silver Salmon Creek | 59.980167 | -152.665167 | false | false | Lakes | Port Alsworth | Alaska | Lake Clark National Park and Preserve | silversalmoncreek
        2 | 1003 | Chilkoot Trail | 59.560551 | -135.334571 | true | false | Mountains | Skagway | Alaska | Klondike Gold Rush National Historical Park | chilkoottrail
        3 | 1004 | St. Mary Lake | 48.69423 | -113.536248 | true | true | Lakes | Browning | Montana | Glacier National Park | stmarylake
        4 | 1005 | Twin Lake | 60.641684 | -153.849883 | false | false | Lakes | Twin Lakes | Alaska | Lake Clark National Park and Preserve | twinlake
        5 | 1006 | Lake McDonald | 48.56002 | -113.934831 | false | false | Mountains | West Glacier | Montana | Glacier National Park | lakemcdonald
        6 | 1007 | Charley Rivers | 65.350021 | -143.122586 | false | true | Rivers | Eaking | Alaska | Charley Rivers National Preserve | charleyrivers
        7 | 1008 | Icy Bay | 60.089917 | -141.518167 | false | false | Mountains | Icy Bay | Alaska | Wrangell-St. Elias National Park and Preserve | icybay
        8 | 1009 | Rainbow Lake | 61.694334 | -150.086103 | false | false | Lakes | Willow | Alaska | State Recreation Area | rainbowlake
        9 | 1010 | Hidden Lake | 48.495442 | -121.17799 | false | false | Lakes | Newhalem | Washington | North Cascades National Park | hiddenlake
        10 | 1011 | Chincoteague | 37.91531 | -75.383212 | false | false | Rivers | Chincoteague | Virginia | Chincoteague National Wildlife Refuge | chincoteague
        11 | 1012 | Lake Umbagog | 44.747408 | -71.056816 | false | true | Lakes | Errol | New Hampshire | Umbagog National Wildlife Refuge | umbagog
        """

    static var rows: [[String]] {
        specTable.split(separator: "\n").map { $0.split(separator: "|").map { String(ASCIIBlanks.spacesAndTabs.trimming($0)) } }
    }

    @Test(arguments: rows)
    func everyFieldAsTheSpecSays(_ row: [String]) throws {
        try #require(row.count == 12)
        let index = try #require(Int(row[0]))
        let landmark = try #require(LandmarkCatalog.embedded.landmark(at: index))
        #expect(landmark.id == Int(row[1]))
        #expect(landmark.name == row[2])
        #expect(landmark.coordinate.latitude == Double(row[3]))
        #expect(landmark.coordinate.longitude == Double(row[4]))
        #expect(landmark.isFavorite == (row[5] == "true"))
        #expect(landmark.isFeatured == (row[6] == "true"))
        #expect(landmark.category == row[7])
        #expect(landmark.city == row[8])
        #expect(landmark.state == row[9])
        #expect(landmark.park == row[10])
        #expect(landmark.imageName == row[11])
    }
}
