import LandmarkNear

/// `serve`'s NATS options (docs/reference/nats.md): `--nats URL[,URL...]`, `--nats-stream NAME`,
/// `--nats-partitions LIST`.
enum NATSOptionsParsing {
    static let valued: Set<String> = ["nats", "nats-stream", "nats-partitions"]

    static let help = """
        NATS JetStream (see docs/reference/nats.md):
          --nats URL[,URL...]  read fixes from a JetStream stream: nats://HOST[:PORT], the servers
                               of one cluster separated by commas (libnats moves between them).
                               Needs --state: a message is acknowledged only once its fixes are
                               committed there, with how far its partition was read; a restart
                               reads on from there. Unreachable servers are tried again with
                               backoff (0.25 s doubling to 4 s), a line per change; /healthz
                               answers 503 meanwhile. libnats is opened only then
          --nats-stream NAME   the stream (made by 'landmark-near publish'); each message an
                               NDJSON fix on NAME.P, P its device's partition
          --nats-partitions LIST  the partitions this instance owns: 0,1 or 4-7 (default: all
                               that 'publish' recorded). Instances with disjoint partitions and
                               their own --state print together what one would
        """

    /// The settings, or nil without `--nats` (its companions are then refused).
    static func settings(from args: ArgumentScanner) throws(ServerError) -> NATSSettings? {
        guard let urls = args.value("nats") else {
            if let stray = valued.sorted().first(where: { args.value($0) != nil }) {
                throw .usage("--\(stray) goes with --nats URL")
            }
            return nil
        }
        let servers = try NATSServers(parsing: urls)
        guard let stream = args.value("nats-stream") else {
            throw .usage("needs --nats-stream NAME (the stream 'landmark-near publish' fills)", .nats)
        }
        try NATSPartitions.checkStreamName(stream)
        guard args.value("state") != nil else {
            throw .usage(
                "needs --state FILE: a message is acknowledged only once its fixes are committed there, with how far its partition was read",
                .nats)
        }
        let partitions = try args.value("nats-partitions").map { text throws(ServerError) in
            try NATSPartitions.parseList(text, count: nil)
        }
        return NATSSettings(servers: servers, stream: stream, partitions: partitions)
    }

    /// `nats: 1200 messages, 1 unreadable, 3 duplicates` for the summary line.
    static func summary(of counts: NATSStatus.Counts) -> String {
        "nats: \(counts.messages) messages, \(counts.unreadable) unreadable, \(counts.duplicates) duplicates"
    }
}
