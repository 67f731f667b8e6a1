import Foundation
import Testing
@testable import Thumbs

@Suite struct BlockingThreadPoolTests {
    @Test func runsWorkOnItsOwnThreads() async throws {
        let pool = BlockingThreadPool(name: "thumbs-test", threadCount: 2)
        let name = try await pool.run { Thread.current.name ?? "" }
        #expect(name.hasPrefix("thumbs-test-"))
    }

    @Test func boundsConcurrencyToItsThreadCount() async throws {
        let pool = BlockingThreadPool(name: "thumbs-test", threadCount: 2)
        let counters = Locked((running: 0, peak: 0))
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<12 {
                group.addTask {
                    try await pool.run {
                        counters.withLock { $0.running += 1; $0.peak = max($0.peak, $0.running) }
                        usleep(5_000)
                        counters.withLock { $0.running -= 1 }
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(counters.value.peak == 2)
    }

    @Test func jobCancelledBeforeItStartsNeverRuns() async throws {
        let pool = BlockingThreadPool(name: "thumbs-test", threadCount: 1)
        let gate = Locked(false)
        let ran = Locked(false)
        // Occupy the only thread until the queued job has been cancelled.
        let blocker = Task { try await pool.run { while !gate.value { usleep(1_000) } } }
        try await Task.sleep(for: .milliseconds(20))
        let queued = Task { try await pool.run { ran.withLock { $0 = true } } }
        try await Task.sleep(for: .milliseconds(20))
        queued.cancel()
        await #expect(throws: CancellationError.self) { try await queued.value }
        gate.withLock { $0 = true }
        try await blocker.value
        try await pool.run {}  // drain: anything queued before this has run by now
        #expect(ran.value == false)
    }

    @Test func alreadyCancelledTaskDoesNotRun() async throws {
        let pool = BlockingThreadPool(name: "thumbs-test", threadCount: 1)
        let ran = Locked(false)
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await pool.run { ran.withLock { $0 = true } }
        }
        await #expect(throws: CancellationError.self) { try await task.value }
        try await pool.run {}
        #expect(ran.value == false)
    }

    @Test func errorsReachTheCaller() async {
        let pool = BlockingThreadPool(name: "thumbs-test", threadCount: 1)
        await #expect(throws: ImagingError.emptyFile) { try await pool.run { throw ImagingError.emptyFile } }
    }
}
