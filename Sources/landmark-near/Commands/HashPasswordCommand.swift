import Foundation
import LandmarkNear

#if canImport(Glibc)
import Glibc
#endif

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

        On a terminal it asks for the password twice, without echo, as passwd(1) does.

        Exit status: 0 ok; 64 an argument was given (the password comes on stdin); 65 an
        empty password, one with a NUL byte, or two that differ on a terminal; 74 I/O error.
        """

    static func run(_ arguments: [String], output: OutputWriter) throws(CommandFailure) -> ErrorKind? {
        let command = "landmark-near hash-password"
        let args = try ArgumentScanner(arguments, command: command, valued: [], flags: [])
        // `hash-password alice` would hash stdin and ignore the name: say so instead.
        guard args.positionals.isEmpty else {
            throw .usage(
                "\(command): takes no arguments: the password comes on stdin (printf '%s' PASSWORD | landmark-near hash-password); the user name goes in --users, not here"
            )
        }
        var password: [UInt8]
        if isatty(0) == 1 {
            guard let first = TerminalPrompt.read("Password: "), let second = TerminalPrompt.read("Again: ") else {
                throw CommandFailure(.io, "\(command): cannot read the password from the terminal")
            }
            guard first == second else { throw CommandFailure(.badData, "\(command): the two passwords differ") }
            password = first
        } else {
            password = Array(FileHandle.standardInput.readDataToEndOfFile())
            if password.last == 0x0A { password.removeLast() }
            if password.last == 0x0D { password.removeLast() }
        }
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

/// A line read from the terminal on stdin with echo off, after a prompt on stderr (as passwd(1)
/// asks): the password never shows on the screen. The terminal's settings come back as they
/// were, whatever happens.
enum TerminalPrompt {
    static func read(_ prompt: String) -> [UInt8]? {
        var saved = termios()
        guard tcgetattr(0, &saved) == 0 else { return nil }
        var quiet = saved
        quiet.c_lflag &= ~tcflag_t(ECHO)
        FileHandle.standardError.write(Data(prompt.utf8))
        guard tcsetattr(0, TCSAFLUSH, &quiet) == 0 else { return nil }
        defer {
            tcsetattr(0, TCSAFLUSH, &saved)
            FileHandle.standardError.write(Data("\n".utf8))
        }
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while Glibc.read(0, &byte, 1) == 1 {
            if byte == 0x0A { return line }
            line.append(byte)
        }
        return line.isEmpty ? nil : line
    }
}
