import LandmarkNear

enum DeliveriesCommand: Command {
    static let name = "deliveries"
    static let summary = "list the delivery log of a --state file: what was sent to whom, and the answer"
    static let help = """
        Usage: landmark-near deliveries --state FILE [--json]

        Lists every delivery that watch --push apns or --webhook recorded in the state file:
        the notification (its number in the log, device, landmark, fix time), the target (an
        APNs token as its last 8 hex digits, or the webhook URL without credentials or query),
        the status (pending, retried, delivered, failed, retired), the tries made and the reason
        APNs or the webhook gave. Works while a watch holds the file.

            landmark-near deliveries --state state.db
            landmark-near deliveries --state state.db --json | jq 'select(.status != "delivered")'

        Options:
          --state FILE      the state database of watch --state
          --json            one JSON object a delivery
          -h, --help        show this help

        Exit status: 0; 64 usage error; 65 not a state database; 66 no such file.
        """

    static func run(_ arguments: [String], output: OutputWriter) throws(CommandFailure) -> ErrorKind? {
        let command = "landmark-near deliveries"
        let args = try ArgumentScanner(arguments, command: command, valued: ["state"], flags: ["json"])
        if let extra = args.positionals.first { throw .usage("\(command): unexpected argument \(TerminalText.singleQuoted(extra))") }
        guard let path = args.value("state") else { throw .usage("\(command): --state FILE is required") }
        let rows: [DeliveryLogListing]
        do {
            rows = try DeliveryLogListing.rows(path: path)
        } catch {
            throw CommandFailure(error, context: "\(command): --state ")
        }
        for row in rows { output.writeLine(args.has("json") ? row.jsonLine : row.humanLine) }
        if rows.isEmpty && !args.has("json") { output.writeLine("no deliveries recorded") }
        return nil
    }
}
