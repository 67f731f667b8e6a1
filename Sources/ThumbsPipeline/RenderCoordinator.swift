import ThumbsCore
import ThumbsRendering
import ThumbsLibrary
import ThumbsStore
import ThumbsSupport

/// Coalesces identical work: one render per key however many ask for it at once.
///
/// A job runs for as long as someone waits for it; when its last waiter cancels, the job is
/// cancelled too (a render not yet started on a render thread then never runs) and forgotten, so
/// a later request starts afresh. A job runs at the priority of its most urgent waiter: one
/// joining a preheat job for display raises it (see ``PriorityTicket``).
final class RenderCoordinator: Sendable {
    private let jobs = LockedValue<[ThumbnailKey: Job]>([:])

    /// Jobs running now (for tests and statistics).
    var inFlight: Int { jobs.withLock { $0.count } }

    /// The result of `produce` for `key`, shared with everyone asking for `key` meanwhile.
    func value(
        for key: ThumbnailKey, priority: WorkPriority,
        produce: @escaping @Sendable (PriorityTicket) async throws -> Thumbnail
    ) async throws -> Thumbnail {
        while true {
            do {
                return try await join(key, priority, produce)
            } catch is CancellationError where !Task.isCancelled {
                // Joined a job just as its last other waiter abandoned it: start a new one.
                continue
            }
        }
    }

    private func join(
        _ key: ThumbnailKey, _ priority: WorkPriority,
        _ produce: @escaping @Sendable (PriorityTicket) async throws -> Thumbnail
    ) async throws -> Thumbnail {
        let (job, isNew) = jobs.withLock { jobs -> (Job, Bool) in
            if let running = jobs[key] { return (running, false) }
            let job = Job(ticket: PriorityTicket(priority))
            jobs[key] = job
            return (job, true)
        }
        job.ticket.raise(to: priority)
        if isNew {
            // Weak both ways: the job keeps this closure, and must not keep itself alive.
            let forget: @Sendable () -> Void = { [weak self, weak job] in
                self?.jobs.withLock { jobs in
                    if let job, jobs[key] === job { jobs[key] = nil }
                }
            }
            job.start(produce, whenDone: forget, whenAbandoned: forget)
        }
        return try await job.wait()
    }
}

/// One coalesced piece of work and its waiters. All state is behind `state`'s mutex.
private final class Job: Sendable {
    private struct State {
        var waiters: [UInt64: CheckedContinuation<Thumbnail, any Error>] = [:]
        var cancelledBeforeWaiting: Set<UInt64> = []
        var nextWaiter: UInt64 = 0
        var result: Result<Thumbnail, any Error>?
        var task: Task<Void, Never>?
        var abandoned = false
        var whenAbandoned: (@Sendable () -> Void)?
    }

    private let state = LockedValue(State())
    let ticket: PriorityTicket

    init(ticket: PriorityTicket) {
        self.ticket = ticket
    }

    func start(
        _ produce: @escaping @Sendable (PriorityTicket) async throws -> Thumbnail,
        whenDone: @escaping @Sendable () -> Void, whenAbandoned: @escaping @Sendable () -> Void
    ) {
        let task = Task { [self] in
            let result: Result<Thumbnail, any Error>
            do { result = .success(try await produce(ticket)) } catch { result = .failure(error) }
            whenDone()
            let waiters = state.withLock { state in
                state.result = result
                state.task = nil
                state.whenAbandoned = nil
                defer { state.waiters = [:] }
                return state.waiters
            }
            for waiter in waiters.values { waiter.resume(with: result) }
        }
        let abandonedAlready = state.withLock { state in
            state.task = task
            state.whenAbandoned = whenAbandoned
            return state.abandoned
        }
        if abandonedAlready {
            task.cancel()
            whenAbandoned()
        }
    }

    func wait() async throws -> Thumbnail {
        let id = state.withLock { state in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Thumbnail, any Error>) in
                let immediate = state.withLock { state -> Result<Thumbnail, any Error>? in
                    if let result = state.result { return result }
                    if state.cancelledBeforeWaiting.remove(id) != nil { return .failure(CancellationError()) }
                    state.waiters[id] = continuation
                    return nil
                }
                if let immediate { continuation.resume(with: immediate) }
            }
        } onCancel: {
            leave(id)
        }
    }

    /// A waiter cancelled: it gets `CancellationError` now; the last one out cancels the work.
    private func leave(_ id: UInt64) {
        let (continuation, abandon) = state.withLock {
            state -> (CheckedContinuation<Thumbnail, any Error>?, (Task<Void, Never>?, (@Sendable () -> Void)?)?) in
            let continuation = state.waiters.removeValue(forKey: id)
            if continuation == nil && state.result == nil { state.cancelledBeforeWaiting.insert(id) }
            guard state.result == nil, state.waiters.isEmpty, !state.abandoned else { return (continuation, nil) }
            state.abandoned = true
            defer {
                state.task = nil
                state.whenAbandoned = nil
            }
            return (continuation, (state.task, state.whenAbandoned))
        }
        continuation?.resume(throwing: CancellationError())
        if let (task, forget) = abandon {
            task?.cancel()
            forget?()
        }
    }
}
