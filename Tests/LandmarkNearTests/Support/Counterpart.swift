import Foundation
import Synchronization

/// The test counterparts: scripts in Tests/Counterparts, run with the venv's Python
/// (Scripts/setup.sh makes `<repo>/.venv`).
enum Counterparts {
    static let folder = repositoryRoot.appendingPathComponent("Tests/Counterparts")

    static func python() throws -> URL {
        let python = repositoryRoot.appendingPathComponent(".venv/bin/python")
        guard FileManager.default.isExecutableFile(atPath: python.path) else {
            throw CounterpartError("\(python.path) is missing: run bash Scripts/setup.sh")
        }
        return python
    }
}

struct CounterpartError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Runs a script of Tests/Counterparts to its end; kills it after `timeout` seconds.
func runCounterpart(_ script: String, _ arguments: [String], timeout: Double = 90) async throws -> ProcessResult {
    try await runProcess(
        try Counterparts.python().path,
        [Counterparts.folder.appendingPathComponent(script).path] + arguments,
        timeout: timeout)
}

/// A counterpart server started by a test: a script that prints `port N` once it listens.
/// One owner for the process: it is killed and reaped when this goes away.
///
///     let server = try Counterpart(script: "fake_webhook.py", arguments: ["--log", log.path])
///     let url = "http://127.0.0.1:\(server.port)/"
final class Counterpart {
    let process = ChildProcess()
    let port: Int

    init(script: String, arguments: [String], timeout: Double = 20) throws {
        process.executableURL = try Counterparts.python()
        process.arguments = [Counterparts.folder.appendingPathComponent(script).path] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let found = Mutex<Int?>(nil)
        let ready = DispatchSemaphore(value: 0)
        let handle = output.fileHandleForReading
        DispatchQueue.global().async {
            var text = ""
            while true {
                let data = handle.availableData
                if data.isEmpty { break }
                text += String(decoding: data, as: UTF8.self)
                if let line = text.split(separator: "\n").first(where: { $0.hasPrefix("port ") }),
                    let port = Int(line.dropFirst(5))
                {
                    found.withLock { $0 = port }
                    break
                }
            }
            ready.signal()
        }
        _ = ready.wait(timeout: .now() + timeout)
        guard let port = found.withLock({ $0 }) else {
            process.signal(SIGKILL)
            process.waitUntilExit()
            throw CounterpartError("\(script) did not start listening within \(timeout) s")
        }
        self.port = port
    }

    deinit {
        process.signal(SIGKILL)
        process.waitUntilExit()
    }
}
