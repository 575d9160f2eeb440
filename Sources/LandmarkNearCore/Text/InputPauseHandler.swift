/// What a reader calls at the only place where it can block, before reading more input: lets
/// the one driving it commit and flush while a live input pauses, and stop (or reload) on a
/// signal instead of staying blocked in `read(2)` on a silent pipe.
///
///     final class Driver: InputPauseHandler {
///         let wakeDescriptor = signals.descriptor
///         func inputWillPause() -> Bool { try? session.commit(); return true }
///         func wakeDescriptorIsReadable() -> Bool { signals.take() == SIGHUP }   // false: stop
///     }
public protocol InputPauseHandler: AnyObject {
    /// A descriptor polled together with the input (a signalfd); -1 for none.
    var wakeDescriptor: Int32 { get }
    /// No input byte is ready and the reader is about to wait. Return false to stop reading.
    func inputWillPause() -> Bool
    /// The wake descriptor is readable (checked before every read). Return false to stop
    /// reading: the reader then throws `FixInputError.interrupted`.
    func wakeDescriptorIsReadable() -> Bool
}
