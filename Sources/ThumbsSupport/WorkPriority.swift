/// Which waiting work starts first when a thread frees up.
public enum WorkPriority: Int, Sendable, Hashable, CaseIterable, Comparable {
    /// Someone is looking at the result and it takes milliseconds (an embedded preview): ahead
    /// of every decode, so a degraded image is never stuck behind full renders.
    case immediate
    /// Someone is looking at the result (a display request).
    case interactive
    /// Work that may be looked at soon (preheat).
    case preheat
    /// Work for later (warming a whole library).
    case batch

    public static func < (lhs: WorkPriority, rhs: WorkPriority) -> Bool { lhs.rawValue < rhs.rawValue }
}
