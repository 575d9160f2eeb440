/// Reads payload files and stdin for the parser, with its size cap, so a 10 MB or endless
/// input is refused without being held in memory.
///
///     let bytes = try PayloadInput.readFile("a.apns")
///     let stdin = try PayloadInput.readDescriptor(0, name: "<stdin>")
public enum PayloadInput {
    /// Reads the whole file: `.missingInput` when it cannot be opened (missing, a directory,
    /// not readable), `.badData` past `limit`.
    public static func readFile(_ path: String, limit: Int = PayloadParser.maximumInputBytes) throws(InputError) -> [UInt8] {
        try InputFile.read(path: path, limit: limit, tooLarge: tooLarge(limit))
    }

    /// Reads a descriptor to its end (stdin: `0`), refusing more than `limit` bytes.
    public static func readDescriptor(_ fd: Int32, name: String, limit: Int = PayloadParser.maximumInputBytes) throws(InputError) -> [UInt8] {
        try InputFile.read(descriptor: fd, source: name, limit: limit, tooLarge: tooLarge(limit))
    }

    private static func tooLarge(_ limit: Int) -> String {
        "far too large for a notification payload (APNs allows \(APNsPayload.maximumBytes) bytes; inputs over \(limit) bytes are refused)"
    }
}
