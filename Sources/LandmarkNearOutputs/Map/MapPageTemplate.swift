/// The map page around the run's JSON: `Page/map.html`, with `Page/map.css`,
/// `Page/map-places.js`, `Page/map-basemap.js`, `Page/map-labels.js` and `Page/map.js` put in
/// its `/*STYLE*/`, `/*PLACES*/`, `/*BASEMAP-SCRIPT*/`, `/*LABELS*/` and `/*SCRIPT*/` lines, the
/// basemap's outlines (`Page/basemap.json`, 38.5 KB: Scripts/make-basemap.py) in its
/// `/*BASEMAP*/` line, and the run going where its `/*DATA*/` line is. The files are the page's HTML, CSS and
/// scripts as they are (they can be read, linted and opened on their own); the build embeds them
/// in the binary (SwiftPM's `embedInCode`), so the tool needs no file at run time. Written for
/// this page, with no library and no network request: the Content-Security-Policy forbids any
/// load, the script draws Web Mercator SVG itself, and every name reaches the page through
/// `textContent`.
enum MapPageTemplate {
    static let (head, tail): (String, String) = {
        var page = text(PackageResources.map_html)
        if page.hasSuffix("\n") { page.removeLast() }
        page = page.replacing("/*STYLE*/\n", with: text(PackageResources.map_css), maxReplacements: 1)
        page = page.replacing("/*PLACES*/\n", with: text(PackageResources.map_places_js), maxReplacements: 1)
        page = page.replacing("/*BASEMAP-SCRIPT*/\n", with: text(PackageResources.map_basemap_js), maxReplacements: 1)
        page = page.replacing("/*LABELS*/\n", with: text(PackageResources.map_labels_js), maxReplacements: 1)
        page = page.replacing("/*BASEMAP*/\n", with: text(PackageResources.basemap_json), maxReplacements: 1)
        page = page.replacing("/*SCRIPT*/\n", with: text(PackageResources.map_js), maxReplacements: 1)
        guard let data = page.firstRange(of: "\n/*DATA*/\n") else { preconditionFailure("map.html has no /*DATA*/ line") }
        return (String(page[..<data.lowerBound]), String(page[data.upperBound...]))
    }()

    private static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }
}
