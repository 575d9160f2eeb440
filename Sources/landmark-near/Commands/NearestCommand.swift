import LandmarkNear

enum NearestCommand: Command {
    static let name = "nearest"
    static let summary = "the k nearest landmarks to a position (or to each lat,lon line of stdin)"
    static let help = """
        Usage: landmark-near nearest LAT LON [-k N] [--within LENGTH] [--landmarks FILE] [--json]
               landmark-near nearest [-k N] [--within LENGTH] [--landmarks FILE] [--json] < points

        Prints the k nearest landmarks to a position, nearest first (ties by index), with their
        WGS84 geodesic distances. With no LAT LON, reads one 'lat,lon' a line from stdin and
        answers each line as it comes; blank lines and lines starting with '#' are skipped. A line
        that cannot be read is reported on stderr as '<stdin>:LINE: reason', the others are still
        answered, and the exit status is then 65.

        Arguments:
          LAT LON            decimal degrees, latitude in [-90, 90], longitude in [-180, 180]
                             (negative numbers work as they are: nearest -33.9 151.2);
                             one argument 'LAT,LON' works too (after '--' when it
                             starts with a minus sign: nearest -- -33.9,151.2)

        Options:
          -k N               how many landmarks (default 1)
          --within LENGTH    only landmarks at most this far: a number with mi, km, m or ft
                             (5mi, 8km, 500m)
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
        let query = NearestQuery(limit: limit, within: within)
        let json = args.has("json")

        func answer(_ point: QueryPoint) {
            let neighbors = query.answer(point.coordinate, in: index)
            if json {
                output.writeLine(NearestAnswerFormat.json(point: point, neighbors: neighbors, catalog: catalog))
            } else {
                for row in NearestAnswerFormat.rows(point: point, neighbors: neighbors, catalog: catalog, within: within) {
                    output.writeLine(row)
                }
            }
        }

        if !json { output.writeLine(NearestAnswerFormat.header) }
        if let point {
            answer(point)
            return nil
        }
        let lines = LineStream(descriptor: 0, ownsDescriptor: false, sourceName: "<stdin>")
        var badLines = 0
        func bad(_ number: Int, _ reason: String) {
            badLines += 1
            try? output.flush()
            Console.error("<stdin>:\(number): \(reason)")
        }
        while true {
            let next: LineStream.Line?
            do {
                next = try lines.nextLine()
            } catch {
                throw CommandFailure(error, context: "\(command): ")
            }
            guard let line = next else { break }
            switch line {
            case .overlong(let number):
                bad(number, "line longer than \(lines.maximumLineLength) bytes; skipped")
            case .text(let bytes, let number):
                do {
                    guard let point = try QueryPoint(line: String(decoding: bytes, as: UTF8.self)) else { continue }
                    answer(point)
                } catch {
                    bad(number, error.description)
                    continue
                }
                // Answer as lines come: a live pipe sees each answer at once, while a file or a
                // fast pipe (more input already waiting) is answered in large writes.
                if !lines.hasPendingInput {
                    do {
                        try output.flush()
                    } catch {
                        throw CommandFailure(error, context: "\(command): stdout: ")
                    }
                }
            }
        }
        if badLines > 0 {
            Console.error("\(command): \(badLines) line\(badLines == 1 ? "" : "s") of stdin could not be read")
            return .badData
        }
        return nil
    }
}
