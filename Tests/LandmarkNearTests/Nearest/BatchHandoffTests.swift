import Dispatch
import Foundation
import Testing

@_spi(Inlining) @testable import LandmarkNearCore
@testable import LandmarkNearServer

/// The hand-over between a `nearest` stream's threads: order, and the bound.
@Suite(.suiteTimeLimit) struct BatchHandoffTests {
    @Test(arguments: [1, 4])
    func batchesArriveInOrderAcrossThreads(_ capacity: Int) {
        let handoff = BatchHandoff<[Int]>(capacity: capacity)
        let sender = Thread {
            for value in 0..<2_000 { handoff.put([value, value]) }
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

    @Test func aPutWaitsForAPlace() {
        let handoff = BatchHandoff<Int>(capacity: 1)
        handoff.put(1)
        let done = DispatchSemaphore(value: 0)
        let sender = Thread {
            handoff.put(2)  // no place until the first is taken
            done.signal()
        }
        sender.start()
        #expect(done.wait(timeout: .now() + .milliseconds(200)) == .timedOut, "the second put did not wait for a place")
        #expect(handoff.take() == 1)
        #expect(done.wait(timeout: .now() + .seconds(10)) == .success, "taking left the sender waiting")
        #expect(handoff.take() == 2)
        #expect(handoff.isEmpty)
    }
}
