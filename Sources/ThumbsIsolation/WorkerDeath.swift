/// A worker that is gone: what the file it had failed with, and how it ended.
package struct WorkerDeath: Error {
    package enum Cause: Equatable {
        case crashed
        case outOfMemory
        case timedOut(Duration)
    }

    /// Nil when the worker ended before it took the file: the file is not to blame.
    package var cause: Cause?
    /// The worker's wait status.
    package var status: Int32?
    /// What the renderer saw.
    package var reason: String
}
