/// Counts the records a reader skipped without an error because they are not fixes (an RMC
/// with status V, a gpsd SKY report, an OwnTracks `lwt` ...), by kind in order of first
/// appearance: what the "no fix" warning and the summary tell.
///
///     var tally = SkipTally()
///     tally.add("RMC with status V"); tally.add("RMC with status V"); tally.add("GGA with quality 0")
///     tally.description   // "2 RMC with status V, 1 GGA with quality 0"
package struct SkipTally: Sendable, Equatable, CustomStringConvertible {
    package private(set) var counts: [Kind] = []

    package struct Kind: Sendable, Equatable {
        package var name: String
        package var count: Int
    }

    package init() {}

    package var total: Int { counts.reduce(0) { $0 + $1.count } }
    package var isEmpty: Bool { counts.isEmpty }

    package mutating func add(_ name: String, count: Int = 1) {
        if let index = counts.firstIndex(where: { $0.name == name }) {
            counts[index].count += count
        } else {
            counts.append(Kind(name: name, count: count))
        }
    }

    package mutating func add(_ other: SkipTally) {
        for kind in other.counts { add(kind.name, count: kind.count) }
    }

    /// The count of the kinds whose name passes `predicate`.
    package func count(where predicate: (String) -> Bool) -> Int {
        counts.filter { predicate($0.name) }.reduce(0) { $0 + $1.count }
    }

    package var description: String {
        counts.map { "\($0.count) \($0.name)" }.joined(separator: ", ")
    }
}
