import Hummingbird
import Synchronization

/// When a request's answer ends, for the metrics: when its handler returns, or, for a body
/// written after that (``streamed(_:)``: an opportunistic answer rendering its final image, a
/// movie read a chunk at a time), when the body ends. ``ServerMiddleware`` gives each request
/// one through its context and records the request with ``answered(record:)``.
///
/// Only a streamed body is wrapped: Hummingbird writes a body of one buffer with its head in one
/// write, and a wrapped one in three.
final class ResponseTiming: Sendable {
    private struct State {
        var streamed = false
        /// The recording waiting for the streamed body's end.
        var record: (@Sendable () -> Void)?
    }

    private let state = Mutex(State())

    /// `body`, which its handler returns before it is written: the request is recorded when it
    /// ends, written whole or not, or when Hummingbird drops it unwritten (its client gone before
    /// the head was sent).
    func streamed(_ body: ResponseBody) -> ResponseBody {
        state.withLock { $0.streamed = true }
        return ResponseBody(contentLength: body.contentLength) { writer in
            defer { self.bodyEnded() }
            try await body.write(writer)
        }
    }

    /// Runs `record` now, or when the streamed body ends. Called once the handler has returned,
    /// before Hummingbird writes the body.
    func answered(record: @escaping @Sendable () -> Void) {
        let now = state.withLock { state in
            guard state.streamed else { return true }
            state.record = record
            return false
        }
        if now { record() }
    }

    /// The last reference goes with the body and the context: a body dropped unwritten ends here.
    deinit {
        bodyEnded()
    }

    private func bodyEnded() {
        let record = state.withLock { state in
            defer { state.record = nil }
            return state.record
        }
        record?()
    }
}
