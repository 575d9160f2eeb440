@_spi(Inlining) import LandmarkNearCore

/// How fixes are spread over the partitions of a stream, and which partitions an instance owns.
///
/// A device's partition is the 32-bit FNV-1a hash of its name's UTF-8 bytes (offset basis
/// 2166136261, prime 16777619, arithmetic modulo 2³²) modulo the number of partitions; a fix
/// without a device is device `default`. Any producer that hashes so puts a device's fixes in
/// the same partition as `publish` does (docs/reference/nats.md gives it in Python). FNV-1a
/// because it is a few lines in any language, needs no seed, and spreads names well enough:
/// a partition is a unit of work, not a hash table bucket.
///
///     NATSPartitions.partition(of: Array("alice/phone".utf8), count: 4)   // 0
///     try NATSPartitions.parseList("0,2-3", count: 4)                     // [0, 2, 3]
package enum NATSPartitions {
    package static func partition(of device: some Sequence<UInt8>, count: Int) -> Int {
        var hash: UInt32 = 2_166_136_261
        for byte in device {
            hash ^= UInt32(byte)
            hash = hash &* 16_777_619
        }
        return Int(hash % UInt32(count))
    }

    /// The subject of a partition: `STREAM.P`.
    package static func subject(stream: String, partition: Int) -> String { "\(stream).\(partition)" }

    /// The durable consumer that reads a partition: `landmark-near-P` (one per partition of the
    /// stream; an instance owns it while it reads the partition).
    package static func consumer(partition: Int) -> String { "landmark-near-\(partition)" }

    /// `--nats-partitions LIST`: numbers and ranges separated by commas (`0,1`, `4-7`), each
    /// below `count` when it is known; sorted, each once.
    package static func parseList(_ text: String, count: Int?) throws(ServerError) -> [Int] {
        var chosen = Set<Int>()
        func refuse(_ reason: String) -> ServerError {
            .usage("--nats-partitions \(TerminalText.singleQuoted(text)): \(reason)", .natsPartitions)
        }
        for item in text.split(separator: ",", omittingEmptySubsequences: false) {
            let bounds = item.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
            guard let low = Int(bounds[0]), low >= 0, let high = bounds.count == 2 ? Int(bounds[1]) : low, high >= low else {
                throw refuse("give partition numbers or ranges separated by commas, as 0,1 or 4-7")
            }
            if let count, high >= count {
                throw refuse("the stream has \(count) partitions, numbered 0 to \(count - 1)")
            }
            guard high - low < 1 << 16 else { throw refuse("at most 65536 partitions") }
            for partition in low...high { chosen.insert(partition) }
        }
        return chosen.sorted()
    }

    /// A stream name NATS takes and a subject can hold: letters, digits, `-` and `_`.
    package static func checkStreamName(_ name: String) throws(ServerError) {
        guard !name.isEmpty, name.utf8.count <= 64,
            name.utf8.allSatisfy({ $0.isASCIILetterOrDigit || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") })
        else {
            throw .usage(
                "--nats-stream \(TerminalText.singleQuoted(name)): a stream name is 1 to 64 letters, digits, '-' or '_'", .natsStream)
        }
    }
}

extension UInt8 {
    fileprivate var isASCIILetterOrDigit: Bool {
        (0x30...0x39).contains(self) || (0x41...0x5A).contains(self) || (0x61...0x7A).contains(self)
    }
}
