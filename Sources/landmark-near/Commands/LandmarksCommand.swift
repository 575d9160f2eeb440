import LandmarkNear

enum LandmarksCommand: Command {
    static let name = "landmarks"
    static let summary = "list the catalog: index, id, kind, name, favourite flag"
    static let help = """
        Usage: landmark-near landmarks [--landmarks FILE] [--json]

        Lists the landmark catalog in load order. The index column is the landmarkIndex
        that payloads carry; kind is point, polygon or line, with the vertex count of a
        polygon or line (a ring's closing position, a repeat of its first, not counted); the
        latitude and longitude are the landmark's point (for a place, the one its entry gives,
        else a point of it).

        Options:
          --landmarks FILE  catalog: tutorial JSON array, GeoJSON or CSV with a header
                            (default: the twelve landmarks of the SwiftUI tutorial)
          --json            one JSON object a landmark (with "kind" and "vertices")
          -h, --help        show this help
        """

    static func run(_ arguments: [String], output: OutputWriter) throws(CommandFailure) -> ErrorKind? {
        let command = "landmark-near landmarks"
        let args = try ArgumentScanner(arguments, command: command, valued: ["landmarks"], flags: ["json"])
        if let extra = args.positionals.first {
            throw .usage("\(command): unexpected argument \(TerminalText.singleQuoted(extra))")
        }
        let catalog = try args.catalog(command: command)
        if args.has("json") {
            for (index, landmark) in catalog.landmarks.enumerated() {
                output.writeLine(LandmarkJSON.object(for: landmark, index: index))
            }
        } else {
            output.writeLine("index  id        favourite  kind     vertices  latitude     longitude     name")
            for (index, landmark) in catalog.landmarks.enumerated() {
                let columns = [
                    padded(String(index), 7), padded(String(landmark.id), 10),
                    padded(landmark.isFavorite ? "yes" : "no", 11),
                    padded(landmark.shape?.kind.rawValue ?? "point", 9), padded(String(landmark.shape?.vertexCount ?? 1), 10),
                    padded(String(landmark.coordinate.latitude), 13), padded(String(landmark.coordinate.longitude), 14),
                    TerminalText.safe(landmark.name),
                ]
                output.writeLine(columns.joined())
            }
        }
        return nil
    }

    /// `text` followed by spaces up to `width` (never cut, unlike `padding(toLength:)`), and
    /// at least one space.
    private static func padded(_ text: String, _ width: Int) -> String {
        text + String(repeating: " ", count: max(1, width - text.count))
    }
}
