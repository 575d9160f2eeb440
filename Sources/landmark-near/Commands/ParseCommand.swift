import LandmarkNear

enum ParseCommand: Command {
    static let name = "parse"
    static let summary = "(not built yet)"
    static let help = "Usage: landmark-near parse"

    static func run(_ arguments: [String], output: OutputWriter) throws(CommandFailure) -> ExitStatus {
        throw CommandFailure(status: .software, message: "landmark-near parse: not built yet")
    }
}
