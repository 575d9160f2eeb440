/// The k smallest values offered, as a pruning bound: k = 1, the usual case, keeps its value
/// inline; a larger k keeps a max-heap of k values (offers cost log k, whatever k is).
///
/// Noncopyable, and no array: a search makes one per query, and a struct holding an array (even
/// the empty one of k = 1) is retained and released wherever the search passes it on, a dozen
/// runtime calls a query (measured; see Benchmarks/LOG.md). The heap's memory is the value's own
/// and freed when it ends, so no copy can share it.
///
///     var best = SmallestValues(capacity: 2)
///     for v in [5.0, 1, 3] { best.offer(v) }
///     best.bound    // 3
struct SmallestValues: ~Copyable {
    let capacity: Int
    /// For capacity 1: the smallest value, or infinity.
    private var single = Double.infinity
    /// For capacity > 1: a max-heap of the `count` smallest values so far (the largest first).
    private let heap: UnsafeMutablePointer<Double>?
    private var count = 0

    init(capacity: Int) {
        precondition(capacity >= 1)
        self.capacity = capacity
        heap = capacity > 1 ? .allocate(capacity: capacity) : nil
    }

    deinit { heap?.deallocate() }

    var isFull: Bool { capacity == 1 ? single < .infinity : count == capacity }

    /// The k-th smallest value once `capacity` values are kept, else infinity. Never below the
    /// true k-th smallest, so it is a safe pruning bound at any time.
    var bound: Double {
        guard let heap else { return single }
        return count == capacity ? heap[0] : .infinity
    }

    /// Keeps `value` (finite) if it may be among the `capacity` smallest.
    mutating func offer(_ value: Double) {
        guard let heap else {
            if value < single { single = value }
            return
        }
        if count < capacity {
            // Sift up from the end.
            var at = count
            count += 1
            while at > 0 {
                let parent = (at - 1) / 2
                guard heap[parent] < value else { break }
                heap[at] = heap[parent]
                at = parent
            }
            heap[at] = value
            return
        }
        guard value < heap[0] else { return }
        // Replace the largest, sift down.
        var at = 0
        while true {
            var child = 2 * at + 1
            guard child < count else { break }
            if child + 1 < count && heap[child + 1] > heap[child] { child += 1 }
            guard heap[child] > value else { break }
            heap[at] = heap[child]
            at = child
        }
        heap[at] = value
    }
}
