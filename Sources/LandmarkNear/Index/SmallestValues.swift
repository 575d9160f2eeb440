/// The k smallest values seen so far (a bounded insertion list: k is small). k = 1, the usual
/// case, keeps its value inline without allocating.
///
///     var best = SmallestValues(capacity: 2)
///     for v in [5.0, 1, 3] { best.offer(v) }
///     best.bound    // 3
struct SmallestValues {
    let capacity: Int
    /// For capacity 1: the smallest value, or infinity.
    private var single = Double.infinity
    /// For capacity > 1: the kept values, ascending.
    private var values: [Double] = []

    init(capacity: Int) {
        precondition(capacity >= 1)
        self.capacity = capacity
        if capacity > 1 { values.reserveCapacity(capacity + 1) }
    }

    var isFull: Bool { capacity == 1 ? single < .infinity : values.count >= capacity }

    /// The largest kept value once `capacity` values are kept, else infinity.
    var bound: Double {
        if capacity == 1 { return single }
        return values.count >= capacity ? values[values.count - 1] : .infinity
    }

    /// Keeps `value` (finite) if it is among the `capacity` smallest so far.
    mutating func offer(_ value: Double) {
        guard value < bound else { return }
        if capacity == 1 {
            single = value
            return
        }
        var at = values.count
        while at > 0 && values[at - 1] > value { at -= 1 }
        values.insert(value, at: at)
        if values.count > capacity { values.removeLast() }
    }
}
