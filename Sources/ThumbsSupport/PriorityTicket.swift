/// The priority of one piece of queued work, which can be raised while it waits.
///
/// A render started by preheating waits at ``WorkPriority/preheat``; when a display request for
/// the same thumbnail joins it, the ticket is raised to ``WorkPriority/interactive`` and the job
/// moves ahead in the render queue instead of making the visible cell wait behind every other
/// display request.
/// ```swift
/// let ticket = PriorityTicket(.preheat)
/// async let thumbnail = pool.run(ticket: ticket) { try render() }
/// ticket.raise(to: .interactive)
/// ```
public final class PriorityTicket: Sendable {
    private struct State {
        var priority: WorkPriority
        var onRaise: (@Sendable (WorkPriority) -> Void)?
    }

    private let state: LockedValue<State>

    public init(_ priority: WorkPriority) {
        state = LockedValue(State(priority: priority))
    }

    public var priority: WorkPriority { state.withLock { $0.priority } }

    /// Raises the priority if `priority` is more urgent; never lowers it.
    public func raise(to priority: WorkPriority) {
        let onRaise = state.withLock { state -> (@Sendable (WorkPriority) -> Void)? in
            guard priority < state.priority else { return nil }
            state.priority = priority
            return state.onRaise
        }
        onRaise?(priority)
    }

    /// Called by the queue holding the work: `body` moves it when the priority is raised.
    package func whenRaised(_ body: @escaping @Sendable (WorkPriority) -> Void) {
        state.withLock { $0.onRaise = body }
    }
}
