import Foundation

/// Dedicated threads for long, blocking C calls: libvips decodes, LMDB write transactions.
///
/// A decode holds its thread for milliseconds to seconds inside C code that cannot suspend, and
/// an LMDB writer may wait for another process's write lock. Run on Swift's cooperative pool (one
/// thread per core), a few such calls would stall every other task in the process. So they run
/// here instead, and the awaiting task is suspended, not blocked. The thread count also bounds
/// how many such calls are in flight; one thread makes a serial queue.
///
/// A job cancelled before a thread picks it up never runs and costs nothing.
/// ```swift
/// let pool = BlockingThreadPool(name: "thumbs-render", threadCount: 2)
/// let width = try await pool.run { try decodeSomething() }
/// ```
package final class BlockingThreadPool: Sendable {
    package let threadCount: Int
    private let queue: JobQueue

    /// Starts `threadCount` threads named "`name`-0", "`name`-1"… (Linux shows 15 characters).
    package init(name: String, threadCount: Int) {
        self.threadCount = max(1, threadCount)
        queue = JobQueue()
        for index in 0..<self.threadCount {
            // Named from inside, on the OS thread itself (what `top -H` and debuggers show): a
            // new Linux thread starts with its creator's name, and Foundation's `Thread.name`
            // does not always reach the OS thread (seen under ThreadSanitizer).
            Thread { [queue] in
                Self.nameCurrentThread("\(name)-\(index)")
                queue.serve()
            }.start()
        }
    }

    deinit {
        queue.shutDown()
    }

    /// Writes the calling thread's name (at most 15 bytes: the kernel's limit) into its
    /// /proc/thread-self/comm, which is what pthread_setname_np does for the calling thread.
    private static func nameCurrentThread(_ name: String) {
        let descriptor = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        let bytes = Array(name.utf8.prefix(15))
        _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    }

    /// Jobs waiting for a thread.
    package var waitingCount: Int { queue.waitingCount(at: nil) }

    /// Jobs waiting for a thread at `priority`.
    package func waitingCount(at priority: WorkPriority) -> Int { queue.waitingCount(at: priority) }

    /// Runs `work` on one of the pool's threads and returns its result; throws
    /// `CancellationError` if the calling task is cancelled before the work starts. Waiting jobs
    /// start in priority order. Within a priority, work someone is looking at (``WorkPriority/immediate``,
    /// ``WorkPriority/interactive``) starts newest first: when display requests pile up during a
    /// fast scroll, the cell that appeared last is the one that stays on screen longest, and the
    /// oldest have often scrolled away. Preheat and batch work start in the order they came.
    ///
    /// Everything `work` captured is released before the caller resumes, so a caller that drops
    /// its last reference to something afterwards really is the last (a store can be closed).
    package func run<T: Sendable>(
        priority: WorkPriority = .interactive, _ work: @escaping @Sendable () throws -> T
    ) async throws -> T {
        try await run(ticket: PriorityTicket(priority), work)
    }

    /// As ``run(priority:_:)``, at the priority of `ticket`, which may still be raised while the
    /// work waits (someone more urgent came to want its result).
    package func run<T: Sendable>(
        ticket: PriorityTicket, _ work: @escaping @Sendable () throws -> T
    ) async throws -> T {
        let id = queue.reserveID()
        let once = OneShotWork(work)
        ticket.whenRaised { [queue] in queue.promote(id, to: $0) }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, Error>) in
                queue.enqueue(
                    Job(
                        id: id,
                        run: { continuation.resume(with: once.run()) },
                        cancel: { continuation.resume(throwing: CancellationError()) }), ticket: ticket)
            }
        } onCancel: {
            queue.cancel(id)
        }
    }
}

/// A closure run at most once and dropped as it finishes. `work` is set at creation and taken
/// by the one thread that runs the job (the queue's lock orders the two), which is what makes
/// the `@unchecked Sendable` true.
private final class OneShotWork<T: Sendable>: @unchecked Sendable {
    private var work: (@Sendable () throws -> T)?

    init(_ work: @escaping @Sendable () throws -> T) {
        self.work = work
    }

    /// Runs the work and releases it (and all it captured) before returning its result.
    func run() -> Result<T, any Error> {
        guard let work else { return .failure(CancellationError()) }
        self.work = nil
        return Result { try work() }
    }
}

private struct Job: Sendable {
    let id: UInt64
    let run: @Sendable () -> Void
    let cancel: @Sendable () -> Void
}

/// The jobs waiting for a thread. Every stored property is read and written only while
/// `condition` is locked, which is what makes the `@unchecked Sendable` true.
private final class JobQueue: @unchecked Sendable {
    private let condition = NSCondition()
    /// One queue per priority: jobs from `head` on wait; taken slots are emptied at once, so a
    /// finished job's closure (and whatever it captured) is not kept alive by the queue.
    private struct Lane {
        var waiting: [Job?] = []
        var head = 0
        /// Taken from the back (see ``BlockingThreadPool/run(priority:_:)``).
        let newestFirst: Bool
        var isEmpty: Bool { head == waiting.count }
    }

    private var lanes = WorkPriority.allCases.map { Lane(newestFirst: $0 <= .interactive) }
    private var nextID: UInt64 = 0
    /// IDs handed out whose job is not queued yet (the continuation is being set up).
    private var reserved: Set<UInt64> = []
    /// Reserved IDs whose task was cancelled before their job was queued.
    private var cancelledEarly: Set<UInt64> = []
    private var isShutDown = false

    func reserveID() -> UInt64 {
        condition.withLock {
            nextID += 1
            reserved.insert(nextID)
            return nextID
        }
    }

    /// Queues `job` in the lane of `ticket`'s priority, read under the queue's lock so that a
    /// raise racing with this call is never lost (it either comes before, or finds the job).
    func enqueue(_ job: Job, ticket: PriorityTicket) {
        let cancelled = condition.withLock {
            reserved.remove(job.id)
            if cancelledEarly.remove(job.id) != nil { return true }
            lanes[ticket.priority.rawValue].waiting.append(job)
            condition.signal()
            return false
        }
        if cancelled { job.cancel() }
    }

    func cancel(_ id: UInt64) {
        let removed: Job? = condition.withLock {
            if reserved.contains(id) {
                cancelledEarly.insert(id)
                return nil
            }
            return remove(id)
        }
        removed?.cancel()
    }

    /// Moves a waiting job to the back of a more urgent lane; a job already running, or queued
    /// at `priority` or better, stays where it is.
    func promote(_ id: UInt64, to priority: WorkPriority) {
        condition.withLock {
            guard
                let lane = lanes.indices.first(where: { lane in
                    lanes[lane].waiting[lanes[lane].head...].contains { $0?.id == id }
                }), priority.rawValue < lane, let job = remove(id)
            else { return }
            lanes[priority.rawValue].waiting.append(job)
        }
    }

    /// Takes a waiting job out of its lane; call with `condition` locked.
    private func remove(_ id: UInt64) -> Job? {
        for lane in lanes.indices {
            let waiting = lanes[lane].waiting
            if let index = waiting[lanes[lane].head...].firstIndex(where: { $0?.id == id }) {
                return lanes[lane].waiting.remove(at: index)
            }
        }
        return nil
    }

    func waitingCount(at priority: WorkPriority?) -> Int {
        condition.withLock {
            lanes.indices.filter { priority == nil || $0 == priority?.rawValue }
                .reduce(0) { $0 + lanes[$1].waiting.count - lanes[$1].head }
        }
    }

    func shutDown() {
        condition.withLock {
            isShutDown = true
            condition.broadcast()
        }
    }

    /// The loop of one render thread: take the next job, run it, repeat; exits once shut down
    /// and drained.
    func serve() {
        while runNext() {}
    }

    /// Runs one job; the job is released when this returns, not when the next one arrives.
    private func runNext() -> Bool {
        guard let job = next() else { return false }
        job.run()
        return true
    }

    private func next() -> Job? {
        condition.withLock {
            while lanes.allSatisfy(\.isEmpty) && !isShutDown {
                condition.wait()
            }
            guard let lane = lanes.firstIndex(where: { !$0.isEmpty }) else { return nil }
            // Slots from `head` on are never empty: only taken ones, before it, are.
            if lanes[lane].newestFirst { return lanes[lane].waiting.removeLast() }
            let head = lanes[lane].head
            let job = lanes[lane].waiting[head]
            lanes[lane].waiting[head] = nil
            lanes[lane].head += 1
            if head > 64 && head * 2 > lanes[lane].waiting.count {
                lanes[lane].waiting.removeFirst(head + 1)
                lanes[lane].head = 0
            }
            return job
        }
    }
}
