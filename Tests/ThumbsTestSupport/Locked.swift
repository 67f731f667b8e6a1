import Synchronization

/// A value that concurrently running test tasks share.
package final class Locked<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>

    package init(_ value: Value) { mutex = Mutex(value) }

    package func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
        mutex.withLock { body(&$0) }
    }

    package var value: Value { mutex.withLock { $0 } }
}
