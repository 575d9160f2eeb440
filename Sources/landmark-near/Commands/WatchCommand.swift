import LandmarkNear

enum WatchCommand: Command {
    static let name = "watch"
    static let summary = "(not built yet)"
    static let help = "Usage: landmark-near watch"

    static func run(_ arguments: [String], output: OutputWriter) throws(CommandFailure) -> ExitStatus {
        throw CommandFailure(status: .software, message: "landmark-near watch: not built yet")
    }
}
