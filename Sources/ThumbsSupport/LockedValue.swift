import Glibc

/// A value and the lock that guards it, kept side by side: `Synchronization.Mutex`'s shape, on a
/// pthread mutex.
///
/// On Linux, `Mutex` is built on a futex, which ThreadSanitizer cannot see, so every access made
/// under one looks like a race to it and the sanitizer's reports drown in noise. TSan intercepts
/// pthread mutexes, and an uncontended one costs the same single atomic operation, so the
/// package's locks are these.
/// ```swift
/// let counts = LockedValue([String: Int]())
/// counts.withLock { $0["grid", default: 0] += 1 }
/// ```
package final class LockedValue<Value> {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private var value: Value

    package init(_ value: Value) {
        self.value = value
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with the value, holding the lock.
    package func withLock<Result, Failure: Error>(
        _ body: (inout Value) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}

/// `@unchecked`: `value` is only read or written inside `withLock`, holding `mutex`.
extension LockedValue: @unchecked Sendable where Value: Sendable {}
