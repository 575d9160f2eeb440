import Glibc
@_spi(Inlining) import LandmarkNearCore

extension ProximityEngine {
    /// The device's candidate favourites around `coordinate`: those the fix could come within
    /// reach of before it moves out of the candidate disc (the grid, or the index, then each
    /// favourite's own radius plus the slack).
    func refreshCandidates(state: inout DeviceState, around coordinate: Coordinate, point: UnitVector) {
        candidateScratch.removeAll(keepingCapacity: true)
        let membership = favoriteSets[Int(state.favoriteSet)]
        if favoriteGrid.isUsable {
            favoriteGrid.candidates(near: coordinate, point: point, vectors: favoriteVectors, into: &candidateScratch)
            if let membership { candidateScratch.removeAll { !membership[Int($0)] } }
            // The grid reaches the largest radius; a favourite with a smaller one is a
            // candidate only within its own (+ slack).
            if !candidateChords.isEmpty {
                candidateScratch.removeAll { point.squaredChord(to: favoriteVectors[Int($0)]) > candidateChords[Int($0)] }
            }
        } else {
            for neighbor in favoriteIndex.within(largestRadius + slack, of: coordinate)
            where (membership?[neighbor.index] ?? true) && neighbor.distance <= favoriteSpans[neighbor.index] + slack {
                candidateScratch.append(Int32(neighbor.index))
            }
        }
        state.setCandidates(candidateScratch, center: coordinate, cosine: cos(coordinate.latitude * .pi / 180))
    }
}
