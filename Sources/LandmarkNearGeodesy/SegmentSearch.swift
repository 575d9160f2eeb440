import Foundation
@_spi(Inlining) import LandmarkNearCore

/// The minimum over s ∈ [0, L] of f(s) = |P X(s)|, the geodesic distance from a point P to the
/// point X(s) at arc length s along a geodesic segment of length L.
///
/// Derivatives. Let θ be the angle at X between the segment's direction and the geodesic from X
/// to P, and m, M the reduced length and geodesic scale M12 of that geodesic (X first). Then
/// f′ = −cos θ (first variation), and f″ = sin²θ · M/m: the geodesic circle of radius f about P
/// has geodesic curvature M/m at X (the Jacobi field vanishing at P has derivative M12 at X, by
/// the Wronskian with the one that starts parallel at X), and the segment, a geodesic, adds none.
///
/// Steps. From X the step is x = R atan2(cos θ · m / R, M) with R the mean radius: on a sphere
/// of radius R (m = R sin(f/R), M = cos(f/R)) it is the exact along-track distance to the foot
/// of the perpendicular from P (the right spherical triangle: tan x = cos θ tan f), so the first
/// step from any start is good to the ellipsoid's departure from the sphere; near the foot it
/// is cos θ · m/M = −f′/f″ · sin²θ, Newton's step up to a factor 1 − cos²θ = 1 − O(step²), so
/// the convergence is quadratic. Each step is kept inside a bracket of the minimum (bisection
/// when it would leave it), which makes the iteration converge in every case.
///
/// Unimodality (Sturm's comparison for the Jacobi equation u″ + K u = 0 along the geodesic from
/// X to P, with the ellipsoid's Gaussian curvature K between b²/a⁴ at the poles and 1/b² on
/// the equator): M ≥ cos(f/b) > 0 while f < D0 = πb/2 (9 985 km), and m ≥ b sin(f/b) > 0 there;
/// M has its first zero no later than D1 = πa²/2b (10 052 km) and its next no sooner than πb
/// after it (beyond every geodesic distance), so M < 0 beyond D1. No cut point lies within πb
/// (the injectivity radius), so f is smooth wherever f < πb. Hence, on a piece all of whose
/// points are nearer than D0, every stationary point is a strict local minimum, so there is at
/// most one and f is unimodal: the bracketed iteration finds its minimum. On a piece all of
/// whose points are farther than D1, every stationary point is a strict local maximum (and the
/// kinks at cut points are concave), so the minimum is at an end. The distance of every point
/// of a piece is within its half-length ("reach") of the distance at a point probed in its
/// middle (f is 1-Lipschitz), which decides between the two; pieces that fit neither are
/// halved, and pieces that can hold nothing nearer than the best distance so far are dropped.
///
/// The band between D0 and D1 (P about a quarter meridian from the segment, where f is nearly
/// flat: exactly so from a pole to the equator) is searched by bisection with the bound
/// |f″| ≤ K_band: a piece of width w whose ends have slopes f′ ≥ K w (or ≤ −K w) has its minimum
/// at an end, and otherwise nothing in it is below min(f(ends)) − K w²/8; pieces are halved
/// until that bound is within `bandTolerance` of the best or they are narrower than
/// `narrowestBandPiece`.
struct SegmentSearch {
    /// One evaluation of f at s: the point, its distance, f′ and the proposed step.
    struct Probe {
        var along: Double
        var point: Coordinate
        var distance: Double
        var slope: Double
        var step: Double
    }

    /// D0 = πb/2 (see above), made a micrometre smaller.
    static let nearLimit = Double.pi / 2 * EllipsoidConstants.polarRadius - 1e-6
    /// D1 = πa²/(2b), made a micrometre larger.
    static let farLimit =
        Double.pi / 2 * EllipsoidConstants.equatorialRadius * EllipsoidConstants.equatorialRadius
        / EllipsoidConstants.polarRadius + 1e-6
    /// Pieces that are neither near nor far are halved down to this width (metres) before the
    /// band search, so that all of their points are within D0 − 2w … D1 + 2w.
    static let widestBandPiece = 100_000.0
    /// K_band ≥ |f″| in the band: max |M/m| over geodesics of length D0 − 200 km … D1 + 200 km
    /// is 6.62·10⁻⁹ /m measured (`SegmentSearchTests.bandCurvatureBound`, from every latitude
    /// along every azimuth), and this is more than twice that.
    static let bandCurvature = 1.4e-8
    /// How far below the best distance the band search lets a piece's lower bound be, metres.
    static let bandTolerance = 1e-4
    /// Width (metres) at which K w²/8 is `bandTolerance`: the band search goes no finer.
    static let narrowestBandPiece = (8 * bandTolerance / bandCurvature).squareRoot()
    /// The radius of the sphere the steps are modelled on: the mean radius (2a + b)/3, metres.
    static let stepRadius = 6_371_008.8
    /// A step this short (metres) ends the iteration: the probe is then about that far from the
    /// minimum (the convergence is quadratic), so its distance is within about as much of the
    /// least (f is 1-Lipschitz), and within about step²·M/m where P is off the segment.
    static let stepTolerance = 1e-7

    let line: GeodesicLine
    let edge: GeodesicEdge
    let length: Double
    let target: Coordinate
    let geodesic: Geodesic
    private(set) var best: Probe
    /// How many times f has been evaluated (each a position and an inverse problem).
    private(set) var probes = 0

    init(segment: GeodesicSegment, target: Coordinate) {
        self.line = segment.line
        self.edge = segment.edge
        self.length = segment.length
        self.target = target
        self.geodesic = segment.geodesic
        best = Probe(along: 0, point: edge.start, distance: .infinity, slope: 0, step: 0)
    }

    /// The nearest probe to the target, starting from the estimate `along` (metres).
    mutating func run(from along: Double) -> Probe {
        let start = min(max(along, 0), length)
        search(from: 0, to: length, at: probe(start))
        return best
    }

    /// f and its step at `along` (the exact endpoints at 0 and L, not the line's position
    /// there, which is within nanometres of them).
    mutating func probe(_ along: Double) -> Probe {
        probes += 1
        let (position, heading) = line.position(at: along)
        let point = along == 0 ? edge.start : along == length ? edge.end : position
        let inverse = geodesic.generalInverse(from: point, to: target)
        guard inverse.distance > 0 else { return Probe(along: along, point: point, distance: 0, slope: 0, step: 0) }
        let cosine = DegreeTrigonometry.sinCos(degrees: inverse.azimuth1 - heading).cos
        let r = Self.stepRadius
        let step = r * atan2(cosine * inverse.reducedLength / r, inverse.scale12)
        return Probe(along: along, point: point, distance: inverse.distance, slope: -cosine, step: step)
    }

    private mutating func consider(_ probe: Probe) {
        if probe.distance < best.distance { best = probe }
    }

    /// The minimum over [lo, hi], probed at `probe` inside it.
    private mutating func search(from lo: Double, to hi: Double, at probe: Probe) {
        consider(probe)
        let reach = max(probe.along - lo, hi - probe.along)
        if probe.distance - reach >= best.distance { return }
        if probe.distance + reach < Self.nearLimit { return descend(from: lo, to: hi, at: probe) }
        if probe.distance - reach > Self.farLimit {
            consider(self.probe(lo))
            consider(self.probe(hi))
            return
        }
        if hi - lo <= Self.widestBandPiece {
            return searchBand(self.probe(lo), self.probe(hi))
        }
        let middle = 0.5 * (lo + hi)
        let left = self.probe(0.5 * (lo + middle))
        let right = self.probe(0.5 * (middle + hi))
        if left.distance <= right.distance {
            search(from: lo, to: middle, at: left)
            search(from: middle, to: hi, at: right)
        } else {
            search(from: middle, to: hi, at: right)
            search(from: lo, to: middle, at: left)
        }
    }

    /// The minimum of f over [lo, hi], where f is unimodal, by the bracketed iteration.
    private mutating func descend(from lo: Double, to hi: Double, at first: Probe) {
        var lo = lo
        var hi = hi
        // Whether lo / hi have been probed (then a step beyond them bisects instead).
        var loProbed = false
        var hiProbed = false
        var current = first
        for _ in 0..<100 {
            consider(current)
            if current.distance == 0 { return }
            if current.slope < 0 {
                // Still going down: the minimum is further on (or at hi).
                if current.along >= hi { return }
                lo = current.along
                loProbed = true
            } else if current.slope > 0 {
                if current.along <= lo { return }
                hi = current.along
                hiProbed = true
            } else {
                return
            }
            if abs(current.step) <= Self.stepTolerance || hi - lo <= Self.stepTolerance { return }
            // (Negated comparisons: a step that is not a number bisects too.)
            var next = current.along + current.step
            if !(next < hi) {
                next = hiProbed ? 0.5 * (current.along + hi) : hi
            } else if !(next > lo) {
                next = loProbed ? 0.5 * (current.along + lo) : lo
            }
            current = probe(next)
        }
    }

    /// The minimum over the band piece between two probes (see the type's comment).
    private mutating func searchBand(_ a: Probe, _ b: Probe) {
        consider(a)
        consider(b)
        let width = b.along - a.along
        let k = Self.bandCurvature
        if a.slope >= k * width || b.slope <= -k * width { return }
        if min(a.distance, b.distance) - k * width * width / 8 >= best.distance - Self.bandTolerance { return }
        if width <= Self.narrowestBandPiece { return }
        let middle = probe(0.5 * (a.along + b.along))
        if a.distance <= b.distance {
            searchBand(a, middle)
            searchBand(middle, b)
        } else {
            searchBand(middle, b)
            searchBand(a, middle)
        }
    }
}
