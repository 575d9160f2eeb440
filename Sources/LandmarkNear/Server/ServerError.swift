/// Why `serve` cannot start or had to stop, with the kind the CLI maps to an exit status.
package enum ServerError: Error, Sendable, CustomStringConvertible {
    /// A bad option value (64): an address that is not loopback without --users, a bad port.
    case usage(String)
    /// A file that does not exist (66).
    case missingInput(String)
    /// A users, catalog or profiles file that cannot be used (65).
    case badData(String)
    /// The socket cannot be bound, stdout cannot be written (74).
    case io(String)

    package var description: String {
        switch self {
        case .usage(let message), .missingInput(let message), .badData(let message), .io(let message): return message
        }
    }
}
