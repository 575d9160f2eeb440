import LandmarkNear

#if canImport(Glibc)
import Glibc
#endif

/// `landmark-near publish`: fixes from any input onto the partitions of a NATS JetStream
/// stream, for `serve --nats` instances to read (docs/reference/nats.md). The readers are
/// `watch`'s; each fix goes out as the line `fixes` prints for it.
enum PublishCommand: Command {
    static let name = "publish"
    static let summary = "publish fixes from any input to a NATS JetStream stream, partitioned by device"
    static let help = """
        Usage: landmark-near publish --nats URL[,URL...] --nats-stream NAME --partitions N
                                     [--replicas R] [FILE...] [options]

        Reads location fixes exactly as 'watch' does (the files in order, or stdin when none is
        given, or for '-') and publishes each, as the NDJSON line 'landmark-near fixes' prints
        for it, to subject NAME.P of a JetStream stream, P the partition of its device: the
        32-bit FNV-1a hash of the device name's UTF-8 bytes modulo N (a fix without a device is
        device "default"), so a device's fixes stay in one partition, in order. The stream is
        made when missing (subjects NAME.*, file storage, R replicas) and records N; 'serve
        --nats' instances read its partitions.

            landmark-near publish --nats nats://127.0.0.1:4222 --nats-stream LOC --partitions 4 drive.gpx
            gpspipe -w | landmark-near publish --nats nats://10.0.0.5,nats://10.0.0.6 --nats-stream LOC --partitions 4

        Options:
          --nats URL[,URL...]  the servers of one cluster: nats://HOST[:PORT] (port 4222),
                               USER:PASSWORD@ when they ask for it
          --nats-stream NAME   the stream: 1 to 64 letters, digits, '-' or '_'
          --partitions N       partitions of the stream (1 to 1024); a stream made with another
                               number is refused
          --replicas R         copies of the stream when it is made (1 to 5, default 1; 3 on a
                               cluster of three survives the loss of one server)
          --format FMT         ndjson, csv, nmea, gpx, kml, tcx or geojson (default: detected)
          --source-name NAME   the name stdin goes by in messages (default <stdin>)
          --strict             stop at the first unreadable record (exit 65)
          -q, --quiet          no summary line at the end
          -h, --help           show this help

        Messages go out in windows of 4,096, each stored by JetStream before the next: what a
        lost server left unanswered is sent again (0.25 s doubling to 4 s, for 2 minutes at
        most), and a message id (Nats-Msg-Id) keeps JetStream from storing one twice. On a live
        input the window goes out whenever the input pauses; SIGINT or SIGTERM stop reading at a
        record boundary, send what was read and print the summary.
        Unreadable records are reported on stderr as <source>:<line>: <reason> and skipped.
        At the end a summary line goes to stderr: records read, fixes published, unreadable.
        Exit status: 0 all records read and published; 65 some were unreadable (or --strict
        stopped); 64 usage error; 66 an input file does not exist; 69 no server answered, or
        JetStream did not store the messages; 74 I/O error; 127 no libnats; 130 SIGINT; 143 SIGTERM.
        """

    static func run(_ arguments: [String], output: OutputWriter) throws(CommandFailure) -> ErrorKind? {
        let command = "landmark-near publish"
        let signals = try WatchCommand.signalInbox(command: command)
        let args = try ArgumentScanner(
            arguments, command: command,
            valued: FixInputReading.valued.union(["nats", "nats-stream", "partitions", "replicas"]),
            flags: FixInputReading.flags.union(["quiet"]), aliases: ["q": "quiet"])
        guard let urls = args.value("nats") else { throw .usage("\(command): --nats URL is required (e.g. --nats nats://127.0.0.1:4222)") }
        guard let stream = args.value("nats-stream") else { throw .usage("\(command): --nats-stream NAME is required") }
        guard let partitionText = args.value("partitions") else {
            throw .usage("\(command): --partitions N is required (the stream's partitions; serve instances share them out)")
        }
        guard let partitions = Int(partitionText), (1...1024).contains(partitions) else {
            throw .usage("\(command): --partitions takes a whole number from 1 to 1024, not \(TerminalText.singleQuoted(partitionText))")
        }
        let replicaText = args.value("replicas") ?? "1"
        guard let replicas = Int(replicaText), (1...5).contains(replicas) else {
            throw .usage("\(command): --replicas takes a whole number from 1 to 5, not \(TerminalText.singleQuoted(replicaText))")
        }
        var reading = try FixInputReading(args, command: command)
        let publisher: NATSPublisher
        do throws(ServerError) {
            let servers = try NATSServers(parsing: urls)
            try NATSPartitions.checkStreamName(stream)
            publisher = try NATSPublisher(servers: servers, stream: stream, partitions: partitions, replicas: replicas)
        } catch {
            let option = error.setting.map { "--\($0.rawValue) " } ?? ""
            throw CommandFailure(error, context: "\(command): \(option)")
        }
        if publisher.createdStream {
            Console.error("\(command): made stream \(stream) (subjects \(stream).*, \(partitions) partitions, \(replicas) replicas)")
        }
        let diagnostics = OutputWriter(descriptor: 2)
        // A pause of a live input sends the window: its fixes reach the stream as they come.
        var sendFailure: ServerError?
        let pause = LiveOutputPause(signals: signals) {
            do throws(ServerError) {
                try publisher.finish()
            } catch {
                sendFailure = error
                throw error
            }
        }
        reading.run(pause: pause, diagnostics: diagnostics) { fix in
            do throws(ServerError) {
                try publisher.publish(device: fix.device, line: FixLine.make(fix))
                return true
            } catch {
                sendFailure = error
                return false
            }
        }
        if sendFailure == nil {
            do throws(ServerError) {
                try publisher.finish()
            } catch {
                sendFailure = error
            }
        }
        publisher.close()
        let stopped = pause.stoppedBy.map { $0 == SIGINT ? " (interrupted by SIGINT)" : " (stopped by SIGTERM)" } ?? ""
        let retried = publisher.retries > 0 ? ", \(publisher.retries) \(publisher.retries == 1 ? "window" : "windows") sent again" : ""
        if !args.has("quiet") {
            Console.error(
                "\(command): \(reading.read) records read, \(publisher.published) fixes published to \(stream) (\(partitions) partitions)\(retried), \(reading.unreadable) unreadable\(reading.notRead)\(stopped)"
            )
        }
        if let sendFailure { throw CommandFailure(sendFailure, context: "\(command): ") }
        if let failure = reading.failure { throw failure }
        if let signal = pause.stoppedBy { return signal == SIGINT ? .interrupted : .terminated }
        return reading.unreadable > 0 ? .badData : nil
    }
}
