import LandmarkNear

#if canImport(Glibc)
import Glibc
#endif

enum NearestCommand: Command {
    static let name = "nearest"
    static let summary = "the k nearest landmarks to a position (or to each lat,lon line of stdin)"
    static let help = """
        Usage: landmark-near nearest LAT LON [-k N] [--within LENGTH] [--landmarks FILE] [--json]
               landmark-near nearest [-] [-k N] [--within LENGTH] [--landmarks FILE] [--json] < points

        Prints the k nearest landmarks to a position, nearest first (ties by index), with their
        WGS84 geodesic distances. With no LAT LON (or '-'), reads one 'lat,lon' a line from
        stdin and answers each line as it comes (in blocks of up to 64 KiB while more lines are
        waiting); blank lines and lines starting with '#' are skipped, and so is a first line
        that names the columns ('lat,lon', 'Latitude,Longitude', quoted or not; 'lon,lat' makes
        the lines after it longitude first). A line that cannot be read (or is longer than
        1 MiB) is reported on stderr as '<stdin>:LINE: reason', the others are still answered,
        and the exit status is then 65.

        Arguments:
          LAT LON            decimal degrees, latitude in [-90, 90], longitude in [-180, 180];
                             negative numbers work as they are (nearest -33.9 151.2), and so
                             does one argument 'LAT,LON' (nearest -33.9,151.2) or 'LAT, LON'.
                             Decimal commas: two numbers that each have one comma and no
                             point are read with decimal commas (nearest 34,5 -116,2 is
                             34.5,-116.2; on stdin too: '34,5 -116,2'); '34,5,-116,2' is
                             refused with a hint. A latitude out of range next to a longitude
                             that would be one gets a hint at the order (nearest -116 34:
                             did you mean 34,-116?). Hemisphere letters: 34.0N 116.0W (S and
                             W negative; then either order); '34;-116' is 34,-116. Instead
                             of LAT LON, '-' reads stdin.

        Options:
          -k N               how many landmarks (default 1)
          --within LENGTH    only landmarks at most this far: a number with mi, km, m or ft
                             (5mi, 8km, 500m); a landmark with its own catalog radius
                             counts as within at that radius
          --landmarks FILE   catalog: tutorial JSON array, GeoJSON or CSV with a header
                             (default: the twelve landmarks of the SwiftUI tutorial); an
                             area is at 0 m from a position inside it, else (and a line)
                             at the geodesic distance to its nearest edge
          --json             one object a query:
                             {"lat":34.0,"lon":-116.0,"nearest":[{"index":0,"id":1001,
                             "name":"Turtle Rock","distanceMeters":15465.793}]}
                             (distances in metres, rounded to the millimetre)
          -h, --help         show this help

        Exit status: 0 ok, 64 usage error, 65 unreadable stdin lines, 66 catalog cannot be opened,
        74 stdin or stdout failed (a reader of stdout that went away, as with
        '| head -1', is not a failure: the command stops quietly with 0).
        """

    static func run(_ arguments: [String], output: OutputWriter) throws(CommandFailure) -> ErrorKind? {
        let command = "landmark-near nearest"
        let args = try ArgumentScanner(
            arguments, command: command, valued: ["k", "within", "landmarks"],
            flags: ["json"], aliases: ["k": "k"])
        let limit: Int
        if let text = args.value("k") {
            guard let value = Int(text), value >= 1 else {
                throw .usage("\(command): -k \(TerminalText.singleQuoted(text)) is not a whole number >= 1")
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
        let point: QueryPoint?
        do {
            point = try position(args.positionals)
        } catch {
            throw .usage("\(command): \(error.description)")
        }
        let catalog = try args.catalog(command: command)
        let index = NearestSearch(catalog: catalog)
        // Landmarks with a radius of their own (docs/reference/catalogs.md) are "within" at that radius.
        let ownRadii = catalog.hasOwnRadii ? (0..<catalog.count).map { catalog.radius(at: $0)?.meters } : []
        let query = NearestQuery(limit: limit, within: within, ownRadii: ownRadii)
        let json = args.has("json")
        if !json { output.writeLine(NearestAnswerFormat.header) }
        if let point {
            let writer = NearestAnswerWriter(catalog: catalog, query: query, json: json)
            writer.answer(
                point.coordinate, latitude: point.latitudeText, longitude: point.longitudeText,
                neighbors: query.answer(point.coordinate, in: index))
            output.write(bytes: writer.bytes)
            return nil
        }
        // The stream writes to stdout from a thread of its own: the header goes first. A reader
        // that went away (`| head -1`) ends the command quietly with 0, as it does `watch`.
        do {
            try output.flush()
        } catch {
            if error.code == EPIPE { return nil }
            throw CommandFailure(error, context: "\(command): stdout: ")
        }
        let badLines: Int
        do {
            badLines = try NearestStream.run(input: 0, output: 1, index: index, catalog: catalog, query: query, json: json) {
                line, reason in
                Console.error("<stdin>:\(line): \(reason)")
            }
        } catch {
            if case .output(let failure) = error, failure.code == EPIPE { return nil }
            throw CommandFailure(error, context: "\(command): ")
        }
        if badLines > 0 {
            Console.error("\(command): \(badLines) line\(badLines == 1 ? "" : "s") of stdin could not be read")
            return .badData
        }
        return nil
    }

    /// The position the arguments give, or nil for none (or `-`): read stdin.
    private static func position(_ positionals: [String]) throws(QueryPointError) -> QueryPoint? {
        switch positionals.count {
        case 0:
            return nil
        case 1 where positionals[0] == "-":
            return nil
        case 1 where !positionals[0].contains(where: { $0 == "," || $0 == ";" || $0 == " " || $0 == "\t" }):
            throw QueryPointError("expected LAT LON (two numbers), or none (or '-') to read stdin, got 1 argument")
        case 1:
            guard let point = try QueryPoint(line: positionals[0]) else { throw QueryPointError("expected LAT LON, or 'LAT,LON'") }
            return point
        case 2 where positionals[0].hasSuffix(",") || positionals[1].hasPrefix(","):
            // `nearest 34, -116`: one 'lat,lon' written with a blank after the comma.
            guard let point = try QueryPoint(line: positionals[0] + positionals[1]) else {
                throw QueryPointError("expected LAT LON, or 'LAT,LON'")
            }
            return point
        case 2:
            return try QueryPoint(latitude: positionals[0], longitude: positionals[1])
        default:
            throw QueryPointError("expected LAT LON (two numbers), or none (or '-') to read stdin, got \(positionals.count) arguments")
        }
    }
}
