import Foundation
import Glibc

/// A lock many holders share or one holds alone (a readers-writer lock). Waiting exclusive
/// holders go first, so they are not starved by a steady stream of shared ones.
///
/// Shared access is reentrant on one thread: a thread already holding it (a read inside a
/// store callback, say) enters again without waiting, which would otherwise deadlock behind a
/// waiting exclusive holder. Exclusive access is not reentrant, and a thread holding shared
/// access must not ask for exclusive access.
///
/// All counters are guarded by `condition`, and each thread's own depth lives in thread-local
/// storage only that thread touches: that is what makes the `@unchecked Sendable` true.
package final class SharedExclusiveLock: @unchecked Sendable {
    private let condition = NSCondition()
    private var sharedHolders = 0
    private var exclusiveWaiting = 0
    private var exclusiveHeld = false
    /// This thread's shared depth, as a pointer-sized integer.
    private var depthKey = pthread_key_t()

    package init() {
        pthread_key_create(&depthKey, nil)
    }

    deinit {
        pthread_key_delete(depthKey)
    }

    private var depth: Int {
        get { Int(bitPattern: pthread_getspecific(depthKey)) }
        set { pthread_setspecific(depthKey, UnsafeRawPointer(bitPattern: newValue)) }
    }

    package func withShared<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        let outermost = depth == 0
        if outermost {
            condition.withLock {
                while exclusiveHeld || exclusiveWaiting > 0 { condition.wait() }
                sharedHolders += 1
            }
        }
        depth += 1
        defer {
            depth -= 1
            if outermost {
                condition.withLock {
                    sharedHolders -= 1
                    if sharedHolders == 0 { condition.broadcast() }
                }
            }
        }
        return try body()
    }

    package func withExclusive<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        precondition(depth == 0, "exclusive access asked for while holding shared access")
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
