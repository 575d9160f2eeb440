@_spi(Inlining) import LandmarkNearCore

/// What the motion rules remember of one device (`--crossing`, `--dwell`): its previous used
/// fix while that was timed (the start of the next pass), and the favourites it entered and
/// has not yet dwelt in. Kept beside the device states (`ProximityEngine.motions`), only when one
/// of the rules is on, so that the plain engine's states stay as small as they are.
struct MotionState {
    /// The previous used fix, when it was timed; NaN latitude: none (no fix yet, or an untimed
    /// fix since: it breaks the pair).
    private(set) var previousLatitude = Double.nan
    private(set) var previousLongitude = 0.0
    private(set) var previousTime = Timestamp(seconds: 0)
    /// Entered and waiting for their dwell, in the order entered.
    private(set) var dwells: [PendingDwell] = []

    struct PendingDwell: Equatable {
        /// The favourite's position in the engine's list.
        var favorite: Int32
        var enteredAt: Timestamp
    }

    var previous: (coordinate: Coordinate, time: Timestamp)? {
        previousLatitude.isNaN ? nil : (Coordinate(latitude: previousLatitude, longitude: previousLongitude), previousTime)
    }

    mutating func setPrevious(_ coordinate: Coordinate?, time: Timestamp?) {
        guard let coordinate, let time else {
            previousLatitude = .nan
            return
        }
        previousLatitude = coordinate.latitude
        previousLongitude = coordinate.longitude
        previousTime = time
    }

    mutating func startDwell(of favorite: Int32, at time: Timestamp) {
        cancelDwell(of: favorite)
        dwells.append(PendingDwell(favorite: favorite, enteredAt: time))
    }

    mutating func cancelDwell(of favorite: Int32) {
        if !dwells.isEmpty { dwells.removeAll { $0.favorite == favorite } }
    }

    mutating func removeDwells(where shouldRemove: (PendingDwell) -> Bool) {
        if !dwells.isEmpty { dwells.removeAll(where: shouldRemove) }
    }
}

/// What the motion rules found on the last fix, for `--explain` (collected only while
/// `ProximityEngine.explainsMotion` is on).
package enum MotionNote: Sendable, Equatable {
    /// No pass was searched: why (`untimed`, `noPrevious`, or the gap over `--crossing`).
    case noPassSearched(reason: PassSkip)
    /// A favourite the device passed between the fixes, as `enter` with `via: crossing`.
    case passed(landmarkIndex: Int, distance: Double, at: Timestamp)
    /// The nearest a pass came to a favourite without reaching its radius.
    case missed(landmarkIndex: Int, distance: Double, radius: Double)
    /// A dwell that will fire on the first fix at or after `due`, if the device stays inside.
    case dwellPending(landmarkIndex: Int, due: Timestamp)

    package enum PassSkip: Sendable, Equatable {
        case untimed
        case noPrevious
        case gap(seconds: Double, maximum: Double)
    }
}
