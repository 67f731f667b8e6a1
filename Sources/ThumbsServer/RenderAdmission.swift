import ThumbsSupport

/// The bound on renders that requests wait for: a flood of distinct misses is answered 503
/// past it instead of queueing without end (each queued request holds a connection, a task and,
/// once it runs, a decode's memory).
final class RenderAdmission: Sendable {
    let limit: Int
    private let admitted = LockedValue(0)

    init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// Takes a place, or says there is none.
    func enter() -> Bool {
        admitted.withLock { count in
            guard count < limit else { return false }
            count += 1
            return true
        }
    }

    func leave() {
        admitted.withLock { $0 -= 1 }
    }

    /// Requests rendering or waiting to now.
    var count: Int { admitted.withLock { $0 } }
}
