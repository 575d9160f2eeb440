import LandmarkNear

enum PayloadCommand: Command {
    static let name = "payload"
    static let summary = "(not built yet)"
    static let help = "Usage: landmark-near payload"

    static func run(_ arguments: [String], output: OutputWriter) throws(CommandFailure) -> ExitStatus {
        throw CommandFailure(status: .software, message: "landmark-near payload: not built yet")
    }
}
