import LandmarkNear

enum PayloadCommand: Command {
    static let name = "payload"
    static let summary = "print (or write as .apns) the APNs payload for one landmark"
    static let help = """
        Usage: landmark-near payload (--id ID | --index N) [--radius 5mi] [--thread-id ID]
                                     [--bundle-id ID] [--landmarks FILE] [--out FILE.apns]

        Prints the APNs payload that notifies "you are within 5 miles of" a landmark, exactly as
        the watch engine sends it: compact JSON, raw UTF-8, at most 4096 bytes (a name too long is
        shortened to whole characters followed by "…"), then a newline.

        Options:
          --id ID           the landmark's id (e.g. 1002)
          --index N         the landmark's index in the catalog; with --id, both must name the
                            same landmark
          --radius LENGTH   the distance the body names: 5mi (default), 1mi, 8km, 500m, 1000ft;
                            a landmark with its own radius in the catalog is named with that
          --thread-id ID    aps.thread-id (default: 5280)
          --bundle-id ID    adds "Simulator Target Bundle" as the first key, for
                            `xcrun simctl push booted FILE.apns`
          --landmarks FILE  catalog (default: the twelve landmarks of the SwiftUI tutorial)
          --out FILE        write the payload to FILE instead (atomically; its directory must exist);
                            the file holds exactly the payload bytes, with no trailing newline
                            ('-' means stdout, as without --out)
          -h, --help        show this help

        Example:
          landmark-near payload --id 1002
          {"aps":{"alert":{"title":"Silver Salmon Creek","body":"You are within 5 miles of Silver Salmon Creek."},"category":"LandmarkNear","thread-id":"5280"},"landmarkIndex":1}

        Exit status: 0 ok, 64 usage error (unknown id, bad radius, options too long to fit
        4096 bytes), 65 bad catalog, 66 catalog cannot be opened, 74 cannot write --out.
        """

    static func run(_ arguments: [String], output: OutputWriter) throws(CommandFailure) -> ErrorKind? {
        let command = "landmark-near payload"
        let args = try ArgumentScanner(
            arguments, command: command,
            valued: ["id", "index", "radius", "thread-id", "bundle-id", "landmarks", "out"], flags: [])
        if let extra = args.positionals.first {
            throw .usage("\(command): unexpected argument \(TerminalText.singleQuoted(extra))")
        }
        let options = try PayloadOptionsParsing.options(from: args, radius: args.length("radius", default: .fiveMiles), command: command)
        guard args.value("id") != nil || args.value("index") != nil else {
            throw .usage("\(command): say which landmark with --id ID or --index N (see \(command) --help)")
        }
        let catalog = try args.catalog(command: command)
        let index = try landmarkIndex(args, catalog: catalog, command: command)
        let payload: String
        do {
            payload = try APNsPayload.make(for: catalog[index], index: index, options: options)
        } catch {
            throw CommandFailure(error, context: "\(command): ")
        }
        if let out = args.value("out"), out != "-" {
            try write(payload, to: out, command: command)
        } else {
            output.writeLine(payload)
        }
        return nil
    }

    private static func landmarkIndex(_ args: ArgumentScanner, catalog: LandmarkCatalog, command: String) throws(CommandFailure) -> Int {
        var byID: Int?
        if let idText = args.value("id") {
            guard let id = Int(idText) else { throw .usage("\(command): --id: \(TerminalText.singleQuoted(idText)) is not an integer id") }
            guard let index = catalog.index(ofID: id) else {
                throw .usage("\(command): --id: no landmark with id \(id) in the catalog (see landmark-near landmarks)")
            }
            byID = index
        }
        guard args.value("index") != nil else { return byID! }
        let index = try args.integer("index", default: 0)
        guard index < catalog.count else {
            throw .usage("\(command): --index: \(index) is out of range: the catalog has \(catalog.count) landmarks")
        }
        if let byID, byID != index {
            throw .usage("\(command): --id \(catalog[byID].id) is the landmark at index \(byID), not \(index)")
        }
        return index
    }

    private static func write(_ payload: String, to given: String, command: String) throws(CommandFailure) {
        // The directory must be there: a typo in it should not become a new tree of directories.
        try OutputPaths.requireWritable(given, option: "--out", command: command)
        let path: String
        switch OutputFile.target(of: given) {
        case .inPlace(let device):
            if let reason = OutputFile.writeInPlace(Array(payload.utf8), to: device) {
                throw CommandFailure(.io, "\(command): --out \(TerminalText.safe(given)): \(reason)")
            }
            return
        case .replace(let file):
            path = file
        }
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        do {
            let writer = try APNsFileWriter(directory: directory.isEmpty ? "/" : directory)
            try writer.write(Array(payload.utf8), named: name)
            writer.synchronizeDirectory()
        } catch {
            throw CommandFailure(error, context: "\(command): --out ")
        }
    }
}
