import ThumbsSupport

/// A value that concurrently running test tasks share.
package final class Locked<Value: Sendable>: Sendable {
    private let mutex: LockedValue<Value>

    package init(_ value: Value) { mutex = LockedValue(value) }

    package func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
        mutex.withLock { body(&$0) }
    }

    package var value: Value { mutex.withLock { $0 } }
}
