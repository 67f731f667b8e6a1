import Logging
import ServiceLifecycle
import Thumbs

/// Keeps the server current while it runs: each change the library watch reports is warmed
/// (so a new photo is listed with its placeholder and answers from the store), what was removed
/// loses its thumbnails, and then the index moves on, which `/api/changes` reports.
struct LibraryWatchService: Service {
    let changes: AsyncThrowingStream<ChangeDetails, any Error>
    let index: LibraryIndex
    let job: WarmJob
    /// Warmed first, in the background, when the server is asked to warm at start.
    let warmFirst: [Asset]
    let logger: Logger

    func run() async throws {
        try await withThrowingDiscardingTaskGroup { group in
            // Beside the watch, not before it: a new photo shows up while a large library warms.
            if !warmFirst.isEmpty {
                group.addTask {
                    try await cancelWhenGracefulShutdown {
                        let summary = try await job.run(warmFirst)
                        logger.info("warmed at start: \(summary)")
                    }
                }
            }
            for try await change in changes.cancelOnGracefulShutdown() {
                let removed = change.removedAssets.map(\.id)
                for id in removed { try await job.store.removeThumbnails(of: id) }
                try await job.store.removeMetadata(of: removed)
                let summary = try await job.run(change.insertedAndChangedAssets)
                index.apply(change)
                logger.info("library changed: \(change); \(summary.rendered) rendered, \(summary.failed) failed")
            }
            group.cancelAll()
        }
    }
}
