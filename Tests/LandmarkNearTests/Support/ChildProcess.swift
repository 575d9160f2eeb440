import CLinux
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A child process for the tests, started with `posix_spawn` and reaped by a `waitpid` of its
/// own; it takes the place of Foundation's `Process`, with the part of its API the tests use.
///
/// Why not `Process`: on Linux, Foundation's `Process` leaves every descriptor of the test
/// runner open in the child, pipes included. A counterpart server started while a
/// `landmark-near` runs then holds the write end of that tool's stdout pipe, so the test's
/// read never sees end of file and the exited tool is never reaped until the server ends —
/// the delivery tests hung that way. Here a child gets exactly stdin, stdout and stderr
/// (everything from descriptor 3 up is closed in the child), default signal dispositions and
/// an empty signal mask (the runner ignores SIGPIPE, which a child must not inherit).
///
///     let child = ChildProcess()
///     child.executableURL = URL(fileURLWithPath: "/bin/echo")
///     child.arguments = ["hello"]
///     let output = Pipe()
///     child.standardOutput = output
///     try child.run()
///     let text = output.fileHandleForReading.readDataToEndOfFile()   // "hello\n"
///     child.waitUntilExit()                                          // status 0
final class ChildProcess: Sendable {
    enum TerminationReason: Sendable { case exit, uncaughtSignal }

    /// Where one of the child's standard streams goes.
    private enum Stream: Sendable {
        case inherit
        case pipe(Pipe)
        case handle(FileHandle)

        init(_ value: Any?) {
            switch value {
            case let pipe as Pipe: self = .pipe(pipe)
            case let handle as FileHandle: self = .handle(handle)
            default: self = .inherit
            }
        }

        var value: Any? {
            switch self {
            case .inherit: return nil
            case .pipe(let pipe): return pipe
            case .handle(let handle): return handle
            }
        }
    }

    private struct Configuration: Sendable {
        var executableURL: URL?
        var arguments: [String] = []
        var environment: [String: String]?
        var currentDirectoryURL: URL?
        var standardInput = Stream.inherit
        var standardOutput = Stream.inherit
        var standardError = Stream.inherit
    }

    private struct Status: Sendable {
        var pid: pid_t = 0
        /// The raw `waitpid` status once reaped.
        var waitStatus: Int32?
    }

    private let configuration = Mutex(Configuration())
    private let status = Mutex(Status())
    private let exited = DispatchSemaphore(value: 0)

    init() {}

    var executableURL: URL? {
        get { configuration.withLock { $0.executableURL } }
        set { configuration.withLock { $0.executableURL = newValue } }
    }
    var arguments: [String]? {
        get { configuration.withLock { $0.arguments } }
        set { configuration.withLock { $0.arguments = newValue ?? [] } }
    }
    var environment: [String: String]? {
        get { configuration.withLock { $0.environment } }
        set { configuration.withLock { $0.environment = newValue } }
    }
    var currentDirectoryURL: URL? {
        get { configuration.withLock { $0.currentDirectoryURL } }
        set { configuration.withLock { $0.currentDirectoryURL = newValue } }
    }
    /// A `Pipe` or a `FileHandle` (`FileHandle.nullDevice` is /dev/null); nil inherits.
    var standardInput: Any? {
        get { configuration.withLock { $0.standardInput.value } }
        set { let stream = Stream(newValue); configuration.withLock { $0.standardInput = stream } }
    }
    var standardOutput: Any? {
        get { configuration.withLock { $0.standardOutput.value } }
        set { let stream = Stream(newValue); configuration.withLock { $0.standardOutput = stream } }
    }
    var standardError: Any? {
        get { configuration.withLock { $0.standardError.value } }
        set { let stream = Stream(newValue); configuration.withLock { $0.standardError = stream } }
    }

    var processIdentifier: Int32 { status.withLock { $0.pid } }
    var isRunning: Bool { status.withLock { $0.pid != 0 && $0.waitStatus == nil } }

    /// The exit status, or the number of the signal that ended the child (as `Process` has it).
    var terminationStatus: Int32 {
        guard let raw = status.withLock({ $0.waitStatus }) else { return 0 }
        return raw & 0x7f == 0 ? (raw >> 8) & 0xff : raw & 0x7f
    }

    var terminationReason: TerminationReason {
        guard let raw = status.withLock({ $0.waitStatus }) else { return .exit }
        return raw & 0x7f == 0 ? .exit : .uncaughtSignal
    }

    func terminate() { signal(SIGTERM) }
    func interrupt() { signal(SIGINT) }

    func signal(_ number: Int32) {
        let pid = status.withLock { $0.waitStatus == nil ? $0.pid : 0 }
        if pid > 0 { kill(pid, number) }
    }

    /// Blocks until the child has ended and was reaped.
    func waitUntilExit() {
        guard status.withLock({ $0.pid }) != 0 else { return }
        exited.wait()
        exited.signal()  // for the next caller
    }

    /// Waits at most `timeout` seconds; true when the child has ended.
    func waitUntilExit(timeout: Double) -> Bool {
        guard exited.wait(timeout: .now() + timeout) == .success else { return false }
        exited.signal()
        return true
    }

    func run() throws {
        let configuration = configuration.withLock { $0 }
        guard let executable = configuration.executableURL?.path else { throw ChildProcessError("no executable") }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var opened: [Int32] = []
        defer { for descriptor in opened { close(descriptor) } }
        for (stream, target, isInput) in [
            (configuration.standardInput, Int32(0), true),
            (configuration.standardOutput, Int32(1), false),
            (configuration.standardError, Int32(2), false),
        ] {
            let source: Int32
            switch stream {
            case .inherit: continue
            case .pipe(let pipe):
                source = isInput ? pipe.fileHandleForReading.fileDescriptor : pipe.fileHandleForWriting.fileDescriptor
            case .handle(let handle):
                if handle === FileHandle.nullDevice || handle.fileDescriptor < 0 {
                    let null = open("/dev/null", (isInput ? O_RDONLY : O_WRONLY) | O_CLOEXEC)
                    guard null >= 0 else { throw ChildProcessError("cannot open /dev/null") }
                    opened.append(null)
                    source = null
                } else {
                    source = handle.fileDescriptor
                }
            }
            posix_spawn_file_actions_adddup2(&actions, source, target)
        }
        posix_spawn_file_actions_addclosefrom_np(&actions, 3)
        if let directory = configuration.currentDirectoryURL?.path {
            posix_spawn_file_actions_addchdir_np(&actions, directory)
        }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        var all = sigset_t()
        sigemptyset(&empty)
        sigfillset(&all)
        sigdelset(&all, SIGKILL)
        sigdelset(&all, SIGSTOP)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let environment = (configuration.environment ?? ProcessInfo.processInfo.environment)
            .map { "\($0.key)=\($0.value)" }
        let argv = ([executable] + configuration.arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup($0) } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        guard result == 0 else {
            throw ChildProcessError("cannot start \(executable): \(String(cString: strerror(result)))")
        }
        status.withLock { $0.pid = pid }

        // The parent's copies of the child's ends: a reader sees end of file only once every
        // write end is closed, a writer gets EPIPE only once every read end is.
        for (stream, isInput) in [
            (configuration.standardInput, true), (configuration.standardOutput, false),
            (configuration.standardError, false),
        ] {
            if case .pipe(let pipe) = stream {
                try? (isInput ? pipe.fileHandleForReading : pipe.fileHandleForWriting).close()
            }
        }

        // The reaper holds on to this object until the child has ended.
        let child = pid
        Thread.detachNewThread { [self] in
            var raw: Int32 = 0
            while waitpid(child, &raw, 0) < 0 && errno == EINTR {}
            status.withLock { $0.waitStatus = raw }
            exited.signal()
        }
    }
}

struct ChildProcessError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
