/// What kind of failure an error is, so that a caller can react without parsing messages. The
/// command-line tool maps each kind to one exit status (sysexits(3)) in one place.
///
///     do { _ = try CatalogLoader.load(path: "nope.json") }
///     catch { error.kind }   // .missingInput
public enum ErrorKind: String, Sendable, CaseIterable {
    /// The caller asked for something that cannot be done: a malformed or contradictory
    /// setting (a radius without a unit, a favourite id the catalog lacks). sysexits: 64.
    case usage
    /// An input was read but its content is not acceptable (a refused catalog, a bad record
    /// with strict reading, a payload that is not JSON, an input over its size cap). 65.
    case badData
    /// An input cannot be opened: it does not exist, is a directory, or may not be read. 66.
    case missingInput
    /// Reading or writing failed midway (a read error, a full disk, an unwritable directory). 74.
    case io
    /// A service the run depends on did not take what it was given: deliveries that failed for
    /// good (a permanent APNs or webhook error, or retried until they expired). 69.
    case unavailable
    /// Try again later: a resource is busy or locked by another process. 75.
    case temporaryFailure
    /// Stopped by SIGINT at a record boundary, after flushing what was decided. 130.
    case interrupted
    /// Stopped by SIGTERM at a record boundary, after flushing what was decided. 143.
    case terminated
}

/// An error of this library: it says what kind of failure it is, and what happened in words
/// that name files, lines and values but no command-line option (the tool adds those).
public protocol LandmarkNearError: Error, CustomStringConvertible {
    var kind: ErrorKind { get }
}
