import LandmarkNear

enum NearestCommand: Command {
    static let name = "nearest"
    static let summary = "(not built yet)"
    static let help = "Usage: landmark-near nearest"

    static func run(_ arguments: [String], output: OutputWriter) throws(CommandFailure) -> ExitStatus {
        throw CommandFailure(status: .software, message: "landmark-near nearest: not built yet")
    }
}
