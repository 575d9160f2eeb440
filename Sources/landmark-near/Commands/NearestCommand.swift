import LandmarkNear

enum NearestCommand: Command {
    static let name = "nearest"
    static let summary = "the k nearest landmarks to a position (or to each lat,lon line of stdin)"
    static let help = """
        Usage: landmark-near nearest LAT LON [-k N] [--within LENGTH] [--landmarks FILE] [--json]
               landmark-near nearest [-k N] [--within LENGTH] [--landmarks FILE] [--json] < points

        Prints the k nearest landmarks to a position, nearest first (ties by index), with their
        WGS84 geodesic distances. With no LAT LON, reads one 'lat,lon' a line from stdin and
        answers each line as it comes (in blocks of up to 64 KiB while more lines are waiting);
        blank lines and lines starting with '#' are skipped. A line that cannot be read (or is
        longer than 1 MiB) is reported on stderr as '<stdin>:LINE: reason', the others are
        still answered, and the exit status is then 65.

        Arguments:
          LAT LON            decimal degrees, latitude in [-90, 90], longitude in [-180, 180]
                             (negative numbers work as they are: nearest -33.9 151.2);
                             one argument 'LAT,LON' works too (after '--' when it
                             starts with a minus sign: nearest -- -33.9,151.2)

        Options:
          -k N               how many landmarks (default 1)
          --within LENGTH    only landmarks at most this far: a number with mi, km, m or ft
                             (5mi, 8km, 500m); a landmark with its own catalog radius
                             counts as within at that radius
          --landmarks FILE   catalog: tutorial JSON array, GeoJSON points or CSV with a header
                             (default: the twelve landmarks of the SwiftUI tutorial)
          --json             one object a query:
                             {"lat":34.0,"lon":-116.0,"nearest":[{"index":0,"id":1001,
                             "name":"Turtle Rock","distanceMeters":15465.793}]}
                             (distances in metres, rounded to the millimetre)
          -h, --help         show this help

        Exit status: 0 ok, 64 usage error, 65 unreadable stdin lines, 66 catalog cannot be opened.
        """

    static func run(_ arguments: [String], output: OutputWriter) throws(CommandFailure) -> ErrorKind? {
        let command = "landmark-near nearest"
        let args = try ArgumentScanner(arguments, command: command, valued: ["k", "within", "landmarks"],
                                       flags: ["json"], aliases: ["k": "k"])
        let limit: Int
        if let text = args.value("k") {
            guard let value = Int(text), value >= 1 else {
                throw .usage("\(command): -k '\(TerminalText.safe(text))' is not a whole number >= 1")
            }
            limit = value
        } else {
            limit = 1
        }
        let within: Length?
        if let text = args.value("within") {
            do {
                within = try Length(parsing: text)
            } catch {
                throw .usage("\(command): --within: \(error.description)")
            }
        } else {
            within = nil
        }
        var point: QueryPoint?
        switch args.positionals.count {
        case 0: point = nil
        case 1 where args.positionals[0].contains(","):
            do {
                point = try QueryPoint(line: args.positionals[0])
            } catch {
                throw .usage("\(command): \(error.description)")
            }
            if point == nil { throw .usage("\(command): expected LAT LON, or 'LAT,LON'") }
        case 2:
            do {
                point = try QueryPoint(latitude: args.positionals[0], longitude: args.positionals[1])
            } catch {
                throw .usage("\(command): \(error.description)")
            }
        default:
            throw .usage("\(command): expected LAT LON (two numbers) or none to read stdin, got \(args.positionals.count) argument\(args.positionals.count == 1 ? "" : "s")")
        }
        let catalog = try args.catalog(command: command)
        let index = LandmarkIndex(catalog: catalog)
        // Landmarks with a radius of their own (SPEC 1) are "within" at that radius.
        let ownRadii = catalog.landmarks.contains { $0.radius != nil } ? catalog.landmarks.map { $0.radius?.meters } : []
        let writer = NearestAnswerWriter(catalog: catalog, index: index,
                                         query: NearestQuery(limit: limit, within: within, ownRadii: ownRadii), json: args.has("json"))
        if !writer.json { output.writeLine(NearestAnswerFormat.header) }
        if let point {
            writer.answer(point.coordinate, latitude: point.latitudeText, longitude: point.longitudeText)
            output.write(bytes: writer.bytes)
            return nil
        }
        let badLines: Int
        do {
            badLines = try NearestStream.run(descriptor: 0, writer: writer, output: output) { line, reason in
                Console.error("<stdin>:\(line): \(reason)")
            }
        } catch {
            throw CommandFailure(error, context: "\(command): ")
        }
        if badLines > 0 {
            Console.error("\(command): \(badLines) line\(badLines == 1 ? "" : "s") of stdin could not be read")
            return .badData
        }
        return nil
    }
}
