import Foundation

/// A lock many holders share or one holds alone (a readers-writer lock). Waiting exclusive
/// holders go first, so they are not starved by a steady stream of shared ones. All state is
/// guarded by `condition`, which is what makes the `@unchecked Sendable` true.
///
/// Not reentrant: a holder must not ask again.
package final class SharedExclusiveLock: @unchecked Sendable {
    private let condition = NSCondition()
    private var sharedHolders = 0
    private var exclusiveWaiting = 0
    private var exclusiveHeld = false

    package init() {}

    package func withShared<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        condition.withLock {
            while exclusiveHeld || exclusiveWaiting > 0 { condition.wait() }
            sharedHolders += 1
        }
        defer {
            condition.withLock {
                sharedHolders -= 1
                if sharedHolders == 0 { condition.broadcast() }
            }
        }
        return try body()
    }

    package func withExclusive<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        condition.withLock {
            exclusiveWaiting += 1
            while exclusiveHeld || sharedHolders > 0 { condition.wait() }
            exclusiveWaiting -= 1
            exclusiveHeld = true
        }
        defer {
            condition.withLock {
                exclusiveHeld = false
                condition.broadcast()
            }
        }
        return try body()
    }
}
