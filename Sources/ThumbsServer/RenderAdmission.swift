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

    /// Takes a place, or says there is none. The place is given back when the slot is released
    /// or, at the latest, when the last reference to it goes.
    func enter() -> RenderSlot? {
        let entered = admitted.withLock { count in
            guard count < limit else { return false }
            count += 1
            return true
        }
        return entered ? RenderSlot(admission: self) : nil
    }

    /// Gives a place back; only ``RenderSlot`` calls it, once per place.
    fileprivate func leave() {
        admitted.withLock { $0 -= 1 }
    }

    /// Requests rendering or waiting to now.
    var count: Int { admitted.withLock { $0 } }
}

/// One place in a ``RenderAdmission``, given back exactly once: when ``release()`` is first
/// called, or when the slot is freed unreleased. An answer streamed later (opportunistic
/// delivery) keeps its slot in the body it has yet to write; a client that goes away before
/// that body starts makes the server drop the body unrun, and the slot with it.
final class RenderSlot: Sendable {
    private let admission: RenderAdmission
    private let released = LockedValue(false)

    fileprivate init(admission: RenderAdmission) {
        self.admission = admission
    }

    func release() {
        let first = released.withLock { released in
            defer { released = true }
            return !released
        }
        if first { admission.leave() }
    }

    deinit {
        release()
    }
}
