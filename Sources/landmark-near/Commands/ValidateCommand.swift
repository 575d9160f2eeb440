import LandmarkNear

enum ValidateCommand: Command {
    static let name = "validate"
    static let summary = "(not built yet)"
    static let help = "Usage: landmark-near validate"

    static func run(_ arguments: [String], output: OutputWriter) throws(CommandFailure) -> ExitStatus {
        throw CommandFailure(status: .software, message: "landmark-near validate: not built yet")
    }
}
