import Logging
import ServiceLifecycle
import ThumbsLibrary
import ThumbsPipeline
import ThumbsSettings

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
                    do {
                        try await cancelWhenGracefulShutdown {
                            let summary = try await job.run(warmFirst)
                            logger.info("warmed at start: \(summary)")
                        }
                    } catch is CancellationError {
                    } catch {
                        logger.error("warming at start stopped: \(error)")
                    }
                }
            }
            do {
                for try await change in changes.cancelOnGracefulShutdown() {
                    await apply(change)
                }
            } catch is CancellationError {
            } catch {
                // The listing stays as it was; serving goes on (a service that returns would
                // stop the whole server).
                logger.error("watching the library stopped: \(error); the listing is no longer updated")
            }
            try? await gracefulShutdown()
            group.cancelAll()
        }
    }

    /// Warms and forgets what the change says, then lists it: the listing follows the library
    /// even when the cache cannot (a full disk, say), and the images are rendered on request.
    private func apply(_ change: ChangeDetails) async {
        do {
            let report = try await job.apply(change)
            logger.info(
                "library changed: \(change); \(report.progress.rendered) rendered, \(report.failures.count) failed")
        } catch {
            logger.error("library changed: \(change); the cache could not follow: \(error)")
        }
        index.apply(change)
    }
}
