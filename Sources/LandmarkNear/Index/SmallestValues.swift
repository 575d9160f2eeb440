/// The k smallest values seen so far, ascending (a bounded insertion list: k is small).
///
///     var best = SmallestValues(capacity: 2)
///     for v in [5.0, 1, 3] { best.offer(v) }
///     best.values    // [1, 3]
struct SmallestValues {
    let capacity: Int
    private(set) var values: [Double] = []

    init(capacity: Int) {
        self.capacity = capacity
        values.reserveCapacity(capacity + 1)
    }

    var isFull: Bool { values.count >= capacity }

    /// The largest kept value, or infinity while fewer than `capacity` are kept.
    var bound: Double { isFull ? values[values.count - 1] : .infinity }

    mutating func offer(_ value: Double) {
        guard value < bound else { return }
        var at = values.count
        while at > 0 && values[at - 1] > value { at -= 1 }
        values.insert(value, at: at)
        if values.count > capacity { values.removeLast() }
    }
}
