/// How far a partition of a NATS JetStream stream was read: the stream sequence of the last
/// message whose fixes were committed with the state (`serve --nats`). A restart reads the
/// partition again from the sequence after it, and a message redelivered at or below it is a
/// duplicate (docs/reference/nats.md). `created` is when JetStream made the stream (its
/// creation time, nanoseconds since 1970): a stream deleted and made again under the same name
/// starts its sequences at 1 again, and a position of the old one must not skip the new one's.
package struct StreamPosition: Sendable, Hashable {
    package var stream: String
    package var partition: Int
    package var sequence: UInt64
    package var created: Int64

    package init(stream: String, partition: Int, sequence: UInt64, created: Int64) {
        self.stream = stream
        self.partition = partition
        self.sequence = sequence
        self.created = created
    }
}
