import LandmarkNear

/// `--thread-id` and `--bundle-id`, shared by `watch` and `payload`.
enum PayloadOptionsParsing {
    static func options(from args: ArgumentScanner, radius: Length, command: String) throws(CommandFailure) -> PayloadOptions {
        var options = PayloadOptions(radius: radius)
        if let threadID = args.value("thread-id") {
            options.threadID = threadID
        }
        if let bundleID = args.value("bundle-id") {
            guard !bundleID.isEmpty else { throw .usage("\(command): --bundle-id must not be empty") }
            options.bundleID = bundleID
        }
        do {
            try options.checkFits()
        } catch {
            throw CommandFailure(error, context: "\(command): --thread-id/--bundle-id: ")
        }
        return options
    }
}
