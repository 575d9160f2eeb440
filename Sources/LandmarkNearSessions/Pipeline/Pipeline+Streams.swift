@_spi(Inlining) import LandmarkNearCore
import LandmarkNearOutputs

/// `serve --nats`: how far each partition of a stream was read, kept with the state.
extension Pipeline {
    /// The records of a partition up to `position` were processed: the next commit saves it with
    /// their changes and notifications, in the same transaction (so what a restart reads again
    /// is exactly what was not committed). Without a store, nothing to save.
    package func reached(_ position: StreamPosition) { commits?.reached(position) }

    /// The positions the state holds for `stream`, by partition; empty without a store.
    package func streamPositions(stream: String) throws(WatchError) -> [Int: StreamPosition] {
        guard let store = commits?.store else { return [:] }
        do {
            return try store.loadStreamPositions(stream: stream)
        } catch {
            throw WatchError(error)
        }
    }
}
