import LandmarkNear

/// The files a command will write (`--out`, `--geojson`), checked before it reads anything
/// (`OutputFile.problemCreating`): 74 at once, in our words, instead of after a live stream.
enum OutputPaths {
    static func requireWritable(_ path: String, option: String, command: String) throws(CommandFailure) {
        if let reason = OutputFile.problemCreating(path) {
            throw CommandFailure(.io, "\(command): \(option) \(TerminalText.safe(path)): \(reason)")
        }
    }
}
