import Foundation
@_spi(Inlining) import LandmarkNearCore

/// Thins tracks for drawing (Douglas–Peucker): within a tolerance in metres, a thinned track
/// keeps its shape; its ends and every fix that caused an event are always kept. Each point
/// gets a significance — the largest tolerance at which Douglas–Peucker would keep it — so the
/// smallest tolerance that fits a point budget is found without running it again.
///
///     let significance = TrackThinning.significance(of: points, keeping: [12])
///     let kept = points.indices.filter { significance[$0] > 5 }   // within 5 m
enum TrackThinning {
    /// Tolerances tried, in metres, smallest first.
    static let ladder: [Double] = [0.5, 1, 2, 5, 10, 20, 50, 100, 200, 500, 1_000, 2_000, 5_000, 10_000, 20_000, 50_000, 100_000]

    /// Per-point significance in metres; `.infinity` for the ends and the kept indices.
    static func significance(of points: [Coordinate], keeping kept: Set<Int>) -> [Double] {
        var result = [Double](repeating: 0, count: points.count)
        guard !points.isEmpty else { return result }
        var anchors = kept.filter { points.indices.contains($0) }
        anchors.insert(0)
        anchors.insert(points.count - 1)
        for anchor in anchors { result[anchor] = .infinity }
        let sorted = anchors.sorted()
        var stack: [(Int, Int, Double)] = []
        for (a, b) in zip(sorted, sorted.dropFirst()) where b > a + 1 { stack.append((a, b, .infinity)) }
        while let (first, last, parent) = stack.popLast() {
            var farthest = first + 1
            var distance = -1.0
            for i in (first + 1)..<last {
                let d = offset(of: points[i], from: points[first], to: points[last])
                if d > distance { distance = d; farthest = i }
            }
            // All on the chord (a parked device's repeated fixes): none matters, and splitting
            // one point at a time would take quadratic time.
            if distance <= 0 {
                for i in (first + 1)..<last { result[i] = 0 }
                continue
            }
            let value = min(distance, parent)
            result[farthest] = value
            if farthest > first + 1 { stack.append((first, farthest, value)) }
            if last > farthest + 1 { stack.append((farthest, last, value)) }
        }
        return result
    }

    /// The smallest tolerance of the ladder that keeps at most `budget` points, or nil when
    /// every point fits already (or none of the ladder does better than the forced points).
    static func tolerance(for significances: [[Double]], budget: Int) -> Double? {
        let total = significances.reduce(0) { $0 + $1.count }
        guard total > budget else { return nil }
        let all = significances.joined().sorted(by: >)
        for tolerance in ladder {
            // Kept: significance > tolerance; `all` is descending.
            var low = 0
            var high = all.count
            while low < high {
                let mid = (low + high) / 2
                if all[mid] > tolerance { low = mid + 1 } else { high = mid }
            }
            if low <= budget { return tolerance }
        }
        return ladder[ladder.count - 1]
    }

    /// Distance in metres from `p` to the segment `a`–`b`, on a local equirectangular plane
    /// around `p` (longitudes unwrapped next to `p`, so ±180° does not matter).
    static func offset(of p: Coordinate, from a: Coordinate, to b: Coordinate) -> Double {
        let metresPerDegree = 111_319.49
        let scale = cos(p.latitude * .pi / 180) * metresPerDegree
        func plane(_ c: Coordinate) -> (Double, Double) {
            (GeodesicCircle.wrapped(c.longitude - p.longitude) * scale, (c.latitude - p.latitude) * metresPerDegree)
        }
        let (ax, ay) = plane(a)
        let (bx, by) = plane(b)
        let dx = bx - ax
        let dy = by - ay
        let lengthSquared = dx * dx + dy * dy
        var t = lengthSquared > 0 ? -(ax * dx + ay * dy) / lengthSquared : 0
        t = min(1, max(0, t))
        let x = ax + t * dx
        let y = ay + t * dy
        return (x * x + y * y).squareRoot()
    }
}
