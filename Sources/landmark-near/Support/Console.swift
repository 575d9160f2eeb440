import Foundation

/// stderr and stdout for the commands. stdout goes through a buffer that is flushed at
/// each call to `flush()` (after every event in `watch`) and at exit.
enum Console {
    static func error(_ message: String) {
        FileHandle.standardError.write(Data((message + "\n").utf8))
    }
}
