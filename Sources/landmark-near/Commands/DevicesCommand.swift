import LandmarkNear

enum DevicesCommand: Command {
    static let name = "devices"
    static let summary = "who is inside now, from a --state file: each device's latest fix and landmarks"
    static let help = """
        Usage: landmark-near devices --state FILE [--inside ID] [--json]

        Lists the devices a --state file knows: each one's latest fix (position and time) and
        the landmarks it is inside, with their index, id, name and since when (the time of the
        fix that entered). The same as serve's GET /devices/DEVICE, one device a line. Reads the
        file only, without its lock: it works while serve or watch holds it, and shows the last
        batch they committed. Only serve keeps the latest fix and since times; a file that
        only watch wrote shows them as unknown (null).

            landmark-near devices --state state.db
            landmark-near devices --state state.db --inside 1001 --json | jq -r .device

        Options:
          --state FILE      the state database of serve --state (or watch --state)
          --inside ID       only the devices inside the landmark with this id
          --json            one JSON object a device: {"device","latestFix","inside"}
          -h, --help        show this help

        Exit status: 0; 64 usage error; 65 not a state database; 66 no such file.
        """

    static func run(_ arguments: [String], output: OutputWriter) throws(CommandFailure) -> ErrorKind? {
        let command = "landmark-near devices"
        let args = try ArgumentScanner(arguments, command: command, valued: ["state", "inside"], flags: ["json"])
        if let extra = args.positionals.first { throw .usage("\(command): unexpected argument \(TerminalText.singleQuoted(extra))") }
        guard let path = args.value("state") else { throw .usage("\(command): --state FILE is required") }
        var inside: Int?
        if let text = args.value("inside") {
            guard let id = Int(text) else {
                throw .usage("\(command): --inside takes a landmark id (an integer), not \(TerminalText.singleQuoted(text))")
            }
            inside = id
        }
        var devices: [DeviceSnapshot]
        do {
            devices = try DeviceListing.devices(path: path)
        } catch {
            throw CommandFailure(error, context: "\(command): --state ")
        }
        if let inside {
            devices = devices.filter { $0.favorites.contains { $0.landmarkID == inside && $0.isInside } }
        }
        for device in devices { output.writeLine(args.has("json") ? DeviceListing.json(device) : DeviceListing.humanLine(device)) }
        if devices.isEmpty && !args.has("json") {
            output.writeLine(inside.map { "no device is inside landmark \($0)" } ?? "no devices recorded")
        }
        return nil
    }
}
