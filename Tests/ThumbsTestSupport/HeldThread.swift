import Dispatch
import ThumbsCoreTestSupport
import ThumbsImaging
import ThumbsSupport

/// One of a pool's threads kept busy until ``release()``: work queued meanwhile waits in the
/// pool's order, so a test can arrange the queue before anything in it runs.
package final class HeldThread: Sendable {
    private let gate: DispatchSemaphore
    private let holder: Task<Void, any Error>

    /// Returns once the thread is held.
    package init(_ pool: BlockingThreadPool) async throws {
        let gate = DispatchSemaphore(value: 0)
        let held = Locked(false)
        holder = Task {
            try await pool.run {
                held.withLock { $0 = true }; gate.wait()
            }
        }
        self.gate = gate
        while !held.value { try await Task.sleep(for: .milliseconds(1)) }
    }

    /// Lets the thread go and waits until it has.
    package func release() async throws {
        gate.signal()
        try await holder.value
    }
}
