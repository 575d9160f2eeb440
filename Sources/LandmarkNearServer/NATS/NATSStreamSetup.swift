import CNATS
@_spi(Inlining) import LandmarkNearCore

#if canImport(Glibc)
import Glibc
#endif

/// The stream and its consumers, as `publish` makes them and `serve --nats` finds them.
///
/// The stream takes subjects `STREAM.*` (one a partition), on file, with the replicas asked
/// for; its description records the number of partitions (`landmark-near partitions=4`), so
/// that `serve` can read them all without being told, and a `publish` with another number is
/// refused (it would put a device's fixes in two partitions, and their order between them is
/// lost).
enum NATSStreamSetup {
    static let descriptionPrefix = "landmark-near partitions="
    /// A partition consumer's MaxAckPending: the messages JetStream has delivered to it and not
    /// yet had acknowledged, at most.
    static let maximumUnacknowledged = 65_536

    /// What is known of a stream: missing, or present with the partitions its description
    /// records (nil: not made by `publish`) and when JetStream made it.
    enum Found: Equatable {
        case missing
        case present(partitions: Int?, created: Int64)
    }

    /// Looks the stream up; a problem reaching JetStream throws (`.unavailable`).
    static func lookUp(_ jetStream: OpaquePointer, stream: String) throws(ServerError) -> Found {
        let library = NATSLibrary.functions
        var info: UnsafeMutablePointer<jsStreamInfo>?
        var error = jsErrCode(0)
        let code = library.js_GetStreamInfo(&info, jetStream, stream, nil, &error)
        defer { if let info { library.jsStreamInfo_Destroy(info) } }
        if code == NATS_NOT_FOUND || error == JSStreamNotFoundErr { return .missing }
        guard code == NATS_OK, let info else {
            throw ServerError(kind: .unavailable, setting: .nats, message: "cannot read stream \(stream): \(NATSLibrary.describe(code))")
        }
        let description = info.pointee.Config?.pointee.Description.map { String(cString: $0) } ?? ""
        let created = info.pointee.Created
        guard description.hasPrefix(descriptionPrefix) else { return .present(partitions: nil, created: created) }
        return .present(partitions: Int(description.dropFirst(descriptionPrefix.count)), created: created)
    }

    /// Makes the stream (subjects `STREAM.*`, file storage, `replicas`, its partitions in the
    /// description).
    static func create(_ jetStream: OpaquePointer, stream: String, partitions: Int, replicas: Int) throws(ServerError) {
        let library = NATSLibrary.functions
        var config = jsStreamConfig()
        _ = library.jsStreamConfig_Init(&config)
        let name = CString(stream)
        let description = CString(descriptionPrefix + String(partitions))
        let subject = CString(stream + ".*")
        var subjects: [UnsafePointer<CChar>?] = [UnsafePointer(subject.pointer)]
        config.Name = UnsafePointer(name.pointer)
        config.Description = UnsafePointer(description.pointer)
        config.Storage = js_FileStorage
        config.Replicas = Int64(replicas)
        var info: UnsafeMutablePointer<jsStreamInfo>?
        var error = jsErrCode(0)
        let code = subjects.withUnsafeMutableBufferPointer { buffer in
            config.Subjects = buffer.baseAddress
            config.SubjectsLen = 1
            return library.js_AddStream(&info, jetStream, &config, nil, &error)
        }
        withExtendedLifetime((name, description, subject)) {}
        if let info { library.jsStreamInfo_Destroy(info) }
        guard code == NATS_OK else {
            throw ServerError(
                kind: .unavailable, setting: .nats,
                message: "cannot make stream \(stream) (\(replicas) replicas): \(NATSLibrary.describe(code))")
        }
    }

    /// Makes the durable pull consumer of a partition anew, starting at stream sequence
    /// `start` (1: the beginning), acknowledged cumulatively (`AckAll`: acknowledging a
    /// message acknowledges every one before it, so a batch costs one acknowledgement), and
    /// subscribes to it. A consumer of the same name left by an earlier run is deleted first:
    /// the state, not the consumer, says where the partition is read from.
    static func subscribe(
        _ jetStream: OpaquePointer, stream: String, partition: Int, start: UInt64
    ) throws(ServerError) -> OpaquePointer {
        let library = NATSLibrary.functions
        let streamName = CString(stream)
        let durable = CString(NATSPartitions.consumer(partition: partition))
        let subject = CString(NATSPartitions.subject(stream: stream, partition: partition))
        var error = jsErrCode(0)
        _ = library.js_DeleteConsumer(jetStream, streamName.pointer, durable.pointer, nil, &error)
        var config = jsConsumerConfig()
        _ = library.jsConsumerConfig_Init(&config)
        config.Durable = UnsafePointer(durable.pointer)
        config.FilterSubject = UnsafePointer(subject.pointer)
        config.DeliverPolicy = start > 1 ? js_DeliverByStartSequence : js_DeliverAll
        config.OptStartSeq = start > 1 ? start : 0
        config.AckPolicy = js_AckAll
        // 30 s for a message to be committed before JetStream sends it again: a message sent
        // through a server that died on the way is sent again after that (a redelivery of
        // one that arrived is dropped as a duplicate). At most `maximumUnacknowledged` are
        // unacknowledged at once, so the engine keeps ahead of the wait at 2,200 fixes/s or
        // more; that bound is also what keeps libnats 3.4's fetch inside its array
        // (`NATSPartitionReader.fetchSize`).
        config.AckWait = 30_000_000_000
        config.MaxAckPending = Int64(maximumUnacknowledged)
        config.MaxDeliver = -1
        var info: UnsafeMutablePointer<jsConsumerInfo>?
        var code = library.js_AddConsumer(&info, jetStream, streamName.pointer, &config, nil, &error)
        if let info { library.jsConsumerInfo_Destroy(info) }
        guard code == NATS_OK else {
            throw ServerError(
                kind: .unavailable, setting: .nats,
                message: "cannot make consumer \(NATSPartitions.consumer(partition: partition)): \(NATSLibrary.describe(code))")
        }
        var options = jsSubOptions()
        _ = library.jsSubOptions_Init(&options)
        options.Stream = UnsafePointer(streamName.pointer)
        options.Consumer = UnsafePointer(durable.pointer)
        var subscription: OpaquePointer?
        code = library.js_PullSubscribe(&subscription, jetStream, subject.pointer, durable.pointer, nil, &options, &error)
        // The configurations point into these strings until here.
        withExtendedLifetime((streamName, durable, subject)) {}
        guard code == NATS_OK, let subscription else {
            throw ServerError(
                kind: .unavailable, setting: .nats,
                message:
                    "cannot subscribe to \(NATSPartitions.subject(stream: stream, partition: partition)): \(NATSLibrary.describe(code))")
        }
        return subscription
    }
}

/// A C string owned by Swift for as long as libnats reads it (a call's configuration).
final class CString {
    let pointer: UnsafeMutablePointer<CChar>

    init(_ text: String) { pointer = strdup(text) }

    deinit { free(pointer) }
}
