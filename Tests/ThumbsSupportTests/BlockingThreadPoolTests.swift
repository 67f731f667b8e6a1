import Foundation
import Testing
import ThumbsCoreTestSupport
@testable import ThumbsSupport
import ThumbsTestSupport

@Suite struct BlockingThreadPoolTests {
    @Test func runsWorkOnItsOwnThreads() async throws {
        let pool = BlockingThreadPool(name: "thumbs-test", threadCount: 2)
        // The OS thread's own name, as `top -H` shows it.
        let name = try await pool.run { (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? "" }
        #expect(name.hasPrefix("thumbs-test-"), "\(name)")
    }

    @Test func boundsConcurrencyToItsThreadCount() async throws {
        let pool = BlockingThreadPool(name: "thumbs-test", threadCount: 2)
        let counters = Locked((running: 0, peak: 0))
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<12 {
                group.addTask {
                    try await pool.run {
                        counters.withLock {
                            $0.running += 1; $0.peak = max($0.peak, $0.running)
                        }
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

    @Test func blockedPoolThreadsDoNotStarveTheCooperativePool() async throws {
        // Every pool thread blocked in "C" at once, as many as there are cores. Were they
        // cooperative threads, the task group below could never run and the test would hang.
        let threads = ProcessInfo.processInfo.activeProcessorCount
        let pool = BlockingThreadPool(name: "thumbs-test", threadCount: threads)
        let released = DispatchSemaphore(value: 0)
        let started = Locked(0)
        let blockers = (0..<threads).map { _ in
            Task {
                try await pool.run {
                    started.withLock { $0 += 1 }; released.wait()
                }
            }
        }
        while started.value < threads { try await Task.sleep(for: .milliseconds(1)) }
        let sum = await withTaskGroup(of: Int.self) { group in
            for value in 0..<200 { group.addTask { value } }
            return await group.reduce(0, +)
        }
        #expect(sum == 19_900)
        #expect(started.value == threads, "all pool threads were still blocked meanwhile")
        for _ in 0..<threads { released.signal() }
        for blocker in blockers { try await blocker.value }
    }

    @Test func workIsReleasedBeforeTheCallerResumes() async throws {
        final class Canary: Sendable {}
        let pool = BlockingThreadPool(name: "thumbs-test", threadCount: 1)
        weak var weakCanary: Canary?
        do {
            let canary = Canary()
            weakCanary = canary
            try await pool.run { _ = canary }
        }
        #expect(weakCanary == nil)
    }

    @Test func waitingWorkStartsByPriority() async throws {
        let pool = BlockingThreadPool(name: "thumbs-test", threadCount: 1)
        let held = try await HeldThread(pool)
        let order = Locked<[WorkPriority]>([])
        var waiting: [Task<Void, any Error>] = []
        for priority in [WorkPriority.batch, .preheat, .interactive, .batch, .interactive] {
            waiting.append(Task { try await pool.run(priority: priority) { order.withLock { $0.append(priority) } } })
            let queued = waiting.count
            while pool.waitingCount < queued { try await Task.sleep(for: .milliseconds(1)) }
        }
        try await held.release()
        for task in waiting { try await task.value }
        #expect(order.value == [.interactive, .interactive, .preheat, .batch, .batch])
    }

    @Test func raisedTicketMovesWaitingWorkAhead() async throws {
        let pool = BlockingThreadPool(name: "thumbs-test", threadCount: 1)
        let held = try await HeldThread(pool)
        let order = Locked<[String]>([])
        let preheated = PriorityTicket(.preheat)
        var waiting: [Task<Void, any Error>] = []
        for (name, ticket) in [
            ("first preheat", PriorityTicket(.preheat)), ("joined by a display", preheated),
            ("display", PriorityTicket(.interactive)), ("preview", PriorityTicket(.immediate)),
        ] {
            waiting.append(Task { try await pool.run(ticket: ticket) { order.withLock { $0.append(name) } } })
            let queued = waiting.count
            while pool.waitingCount < queued { try await Task.sleep(for: .milliseconds(1)) }
        }
        preheated.raise(to: .interactive)
        preheated.raise(to: .batch)
        #expect(preheated.priority == .interactive, "a ticket is never lowered")
        try await held.release()
        for task in waiting { try await task.value }
        // The display it joined came last, so it starts first among displays.
        #expect(order.value == ["preview", "joined by a display", "display", "first preheat"])
    }

    @Test func displayWorkThatPilesUpStartsNewestFirstPreheatOldestFirst() async throws {
        let pool = BlockingThreadPool(name: "thumbs-test", threadCount: 1)
        let held = try await HeldThread(pool)
        let order = Locked<[String]>([])
        var waiting: [Task<Void, any Error>] = []
        for (name, priority) in [
            ("cell 1", WorkPriority.interactive), ("preheat 1", .preheat), ("cell 2", .interactive),
            ("preheat 2", .preheat), ("cell 3", .interactive),
        ] {
            waiting.append(Task { try await pool.run(priority: priority) { order.withLock { $0.append(name) } } })
            let queued = waiting.count
            while pool.waitingCount < queued { try await Task.sleep(for: .milliseconds(1)) }
        }
        try await held.release()
        for task in waiting { try await task.value }
        #expect(order.value == ["cell 3", "cell 2", "cell 1", "preheat 1", "preheat 2"])
    }

    @Test func errorsReachTheCaller() async {
        let pool = BlockingThreadPool(name: "thumbs-test", threadCount: 1)
        await #expect(throws: Refusal()) { try await pool.run { throw Refusal() } }
    }
}

/// An error thrown by work on the pool.
private struct Refusal: Error, Equatable {}
