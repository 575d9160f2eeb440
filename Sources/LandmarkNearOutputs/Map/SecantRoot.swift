/// A root of a continuous function of one variable by secant steps, turned into the Illinois
/// variant of regula falsi once two values of opposite signs bracket it: superlinear where the
/// function is smooth (two or three steps from a good guess), and certain to converge once
/// bracketed, even over a flat stretch (a distance that is 0 inside an area).
///
/// Used where a vertex is moved to the exact distance R from a place (`PlaceOutline`): along a
/// line through a guess, the distance changes by at most the step (it is 1-Lipschitz) and, near
/// the outline, by about the step.
///
///     SecantRoot.find({ $0 * $0 - 2 }, from: 1, 2, tolerance: 1e-12, limit: 5)   // 1.4142135623...
enum SecantRoot {
    /// - Parameters:
    ///   - g: the function.
    ///   - x0, x1: two first guesses (x0 the better one).
    ///   - known: g(x0), when the caller has it already.
    ///   - tolerance: a root is an x where |g(x)| <= tolerance.
    ///   - limit: no x farther than this from x0 is tried: nil instead.
    /// - Returns: nil when no root is found within `limit` and `iterations` evaluations.
    static func find(
        _ g: (Double) -> Double, from x0: Double, _ x1: Double, known: Double? = nil, tolerance: Double, limit: Double, iterations: Int = 60
    ) -> Double? {
        var a = x0
        var fa = known ?? g(a)
        if abs(fa) <= tolerance { return a }
        var b = x1
        var fb = g(b)
        // Which end the last bracketed step replaced: 1 b, -1 a, 0 none yet.
        var side = 0
        for _ in 0..<iterations {
            if abs(fb) <= tolerance { return b }
            guard fa.isFinite, fb.isFinite else { return nil }
            if (fa < 0) != (fb < 0) {
                let c = b - fb * (b - a) / (fb - fa)
                let fc = g(c)
                if abs(fc) <= tolerance { return c }
                if (fc < 0) == (fb < 0) {
                    b = c
                    fb = fc
                    if side == 1 { fa /= 2 }
                    side = 1
                } else {
                    a = c
                    fa = fc
                    if side == -1 { fb /= 2 }
                    side = -1
                }
                // The bracket cannot shrink further in doubles.
                if abs(b - a) <= 1e-15 * max(1, abs(a)) { return nil }
            } else {
                let slope = (fb - fa) / (b - a)
                guard slope.isFinite, slope != 0 else { return nil }
                let next = b - fb / slope
                guard abs(next - x0) <= limit else { return nil }
                a = b
                fa = fb
                b = next
                fb = g(b)
            }
        }
        return nil
    }
}
