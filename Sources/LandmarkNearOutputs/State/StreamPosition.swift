/// How far a partition of a NATS JetStream stream was read: the stream sequence of the last
/// message whose fixes were committed with the state (`serve --nats`). A restart reads the
/// partition again from the sequence after it, and a message redelivered at or below it is a
/// duplicate (docs/reference/nats.md).
package struct StreamPosition: Sendable, Hashable {
    package var stream: String
    package var partition: Int
    package var sequence: UInt64

    package init(stream: String, partition: Int, sequence: UInt64) {
        self.stream = stream
        self.partition = partition
        self.sequence = sequence
    }
}
