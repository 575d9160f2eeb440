import Foundation
import LandmarkNear

enum HashPasswordCommand: Command {
    static let name = "hash-password"
    static let summary = "read a password on stdin and print its yescrypt hash for serve --users"
    static let help = """
        Usage: landmark-near hash-password < password.txt

        Reads one password from stdin (a final line break is not part of it) and prints its
        crypt(3) yescrypt hash ("$y$..."), with a fresh random salt, for the "password" of a
        user in `serve --users FILE`. The password is never printed.

            printf '%s' 's3cret' | landmark-near hash-password
            landmark-near hash-password < /run/secrets/alice

        Exit status: 0 ok; 65 an empty password or one with a NUL byte; 74 I/O error.
        """

    static func run(_ arguments: [String], output: OutputWriter) throws(CommandFailure) -> ErrorKind? {
        let command = "landmark-near hash-password"
        _ = try ArgumentScanner(arguments, command: command, valued: [], flags: [])
        var password = Array(FileHandle.standardInput.readDataToEndOfFile())
        if password.last == 0x0A { password.removeLast() }
        if password.last == 0x0D { password.removeLast() }
        guard !password.isEmpty else {
            throw CommandFailure(.badData, "\(command): no password on stdin")
        }
        guard !password.contains(0) else {
            throw CommandFailure(.badData, "\(command): the password contains a NUL byte, which crypt(3) cannot hash")
        }
        do {
            output.writeLine(try PasswordHash.make(password: password))
        } catch {
            throw CommandFailure(error, context: "\(command): ")
        }
        return nil
    }
}
