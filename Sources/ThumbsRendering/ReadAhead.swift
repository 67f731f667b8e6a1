import ThumbsCore
import ThumbsSupport

/// Has the kernel read a file while its render waits behind others, so that the render thread
/// does not wait for the disk when its turn comes (a cold library's photos, or files the kernel
/// has dropped from memory since the walk read their headers). Nobody waits for it.
package final class ReadAhead: Sendable {
    /// Where files are opened: an open can block (on a NAS, for milliseconds), so not on a
    /// cooperative thread, nor on a render thread.
    private let pool = BlockingThreadPool(name: "thumbs-readahead", threadCount: 1)

    package init() {}

    package func advise(_ location: ImageLocation, priority: WorkPriority) {
        let pool = pool
        Task { _ = try? await pool.run(priority: priority) { location.adviseReading() } }
    }
}
