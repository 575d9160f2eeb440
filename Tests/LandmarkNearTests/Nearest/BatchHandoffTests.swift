import Dispatch
import Foundation
import Synchronization
import Testing

@testable import LandmarkNear

/// The hand-over between a `nearest` stream's threads: order, the bound, and a close that
/// frees a waiting sender.
@Suite(.suiteTimeLimit) struct BatchHandoffTests {
    @Test(arguments: [1, 4])
    func batchesArriveInOrderAcrossThreads(_ capacity: Int) {
        let handoff = BatchHandoff<[Int]>(capacity: capacity)
        let sender = Thread {
            for value in 0..<2_000 { _ = handoff.put([value, value]) }
        }
        sender.start()
        for value in 0..<2_000 {
            let batch = handoff.take()
            guard batch == [value, value] else {
                Issue.record("batch \(value): \(batch)")
                return
            }
        }
        #expect(handoff.isEmpty)
    }

    @Test func closeRefusesLaterPutsAndFreesOneWaitingForAPlace() {
        let handoff = BatchHandoff<Int>(capacity: 1)
        #expect(handoff.put(1))
        let waiting = Mutex<Bool?>(nil)
        let done = DispatchSemaphore(value: 0)
        let sender = Thread {
            let accepted = handoff.put(2)  // no place: waits until the close
            waiting.withLock { $0 = accepted }
            done.signal()
        }
        sender.start()
        #expect(done.wait(timeout: .now() + .milliseconds(200)) == .timedOut, "the second put did not wait for a place")
        handoff.close()
        #expect(done.wait(timeout: .now() + .seconds(10)) == .success, "close left the sender waiting")
        #expect(waiting.withLock { $0 } == false)
        #expect(!handoff.put(3))
        #expect(handoff.isEmpty)
    }
}
