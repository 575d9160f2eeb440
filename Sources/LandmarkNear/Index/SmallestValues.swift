/// The k smallest values offered. k = 1, the usual case, keeps its value inline without
/// allocating; up to `insertionLimit` values are kept sorted by insertion; beyond that every
/// value is kept and `settle()` selects the k smallest once (so a large k costs n log n, not n·k).
///
///     var best = SmallestValues(capacity: 2)
///     for v in [5.0, 1, 3] { best.offer(v) }
///     best.settle()
///     best.bound    // 3
struct SmallestValues {
    static let insertionLimit = 64

    let capacity: Int
    /// For capacity 1: the smallest value, or infinity.
    private var single = Double.infinity
    /// For capacity > 1: the kept values (ascending while capacity <= insertionLimit, or once settled).
    private var values: [Double] = []

    init(capacity: Int) {
        precondition(capacity >= 1)
        self.capacity = capacity
        if capacity > 1 { values.reserveCapacity(min(capacity, SmallestValues.insertionLimit) + 1) }
    }

    var isFull: Bool { capacity == 1 ? single < .infinity : values.count >= capacity }

    /// The k-th smallest value once `capacity` values are kept (and, for a large capacity,
    /// after `settle()`), else infinity. Never below the true k-th smallest, so it is a safe
    /// pruning bound at any time.
    var bound: Double {
        if capacity == 1 { return single }
        guard values.count >= capacity, capacity <= SmallestValues.insertionLimit || isSettled else { return .infinity }
        return values[capacity - 1]
    }

    private var isSettled = false

    /// Keeps `value` (finite) if it may be among the `capacity` smallest.
    mutating func offer(_ value: Double) {
        guard value < bound else { return }
        if capacity == 1 {
            single = value
            return
        }
        if capacity > SmallestValues.insertionLimit {
            values.append(value)
            isSettled = false
            return
        }
        var at = values.count
        while at > 0 && values[at - 1] > value { at -= 1 }
        values.insert(value, at: at)
        if values.count > capacity { values.removeLast() }
    }

    /// Selects the k smallest of everything offered (needed for a capacity above insertionLimit).
    mutating func settle() {
        guard capacity > SmallestValues.insertionLimit, !isSettled else { return }
        values.sort()
        if values.count > capacity { values.removeSubrange(capacity...) }
        isSettled = true
    }
}
