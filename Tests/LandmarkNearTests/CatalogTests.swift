import Testing
@testable import LandmarkNear

@Suite struct EmbeddedCatalogTests {
    @Test func embeddedHasTheTutorialTwelve() {
        let catalog = LandmarkCatalog.embedded
        #expect(catalog.count == 12)
        #expect(catalog[1].name == "Silver Salmon Creek")
        #expect(catalog.favoriteIndices.map { catalog[$0].id } == [1001, 1003, 1004])
    }
}
