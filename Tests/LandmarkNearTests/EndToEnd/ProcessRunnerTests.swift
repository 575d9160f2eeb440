import Foundation
import Testing

/// The helper that runs child processes must fail a test, not hang the run, when the child
/// blocks: here a child that never reads a stdin larger than the pipe holds, and never ends.
@Suite(.suiteTimeLimit) struct ProcessRunnerTests {
    @Test func aBlockedChildIsKilledAndTheCallThrows() async throws {
        let start = Date()
        let error = await #expect(throws: ProcessRunnerError.self) {
            _ = try await runProcess("/bin/sleep", ["600"], stdin: Data(repeating: 0x61, count: 1 << 20), timeout: 1)
        }
        #expect(error?.description.contains("did not end within 1.0 s; killed") == true)
        #expect(Date().timeIntervalSince(start) < 300)  // killed, not waited for: sleep would take 600 s
    }

    @Test func aChildThatIgnoresItsStdinStillReturns() async throws {
        let result = try await runProcess("/bin/echo", ["done"], stdin: Data(repeating: 0x61, count: 1 << 20), timeout: 30)
        #expect(result.status == 0)
        #expect(result.stdout == "done\n")
    }
}
