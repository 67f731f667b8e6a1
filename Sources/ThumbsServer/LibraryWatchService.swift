import Logging
import ServiceLifecycle
import Synchronization
import ThumbsLibrary
import ThumbsPipeline
import ThumbsStore

/// Keeps the server's catalog current while it runs. It watches the library, then catches up
/// with what changed since the catalog was kept; after that, each burst of activity the watch
/// hears is a walk that passes over the folders left as they were. Each walk keeps what it
/// finds in the catalog, which the index hears (`/api/changes`), and what it found inserted or
/// changed is warmed, so that a new photo answers from the store. Memory follows what changed,
/// not the library.
struct LibraryWatchService: Service {
    let library: PhotoLibrary
    let index: LibraryIndex
    /// Warms the server's renditions.
    let warming: WarmJob
    /// Warms the whole library in the background at start, beside the watch.
    let warmsAtStart: Bool
    let logger: Logger

    /// Assets found inserted or changed per warm of the found: at most this many held at once.
    static let warmBatch = 512

    func run() async throws {
        try await withThrowingDiscardingTaskGroup { group in
            // Beside the watch, not before it: a new photo shows up while a large library warms.
            if warmsAtStart {
                group.addTask {
                    do {
                        try await cancelWhenGracefulShutdown {
                            let summary = try await warming.run(over: library)
                            logger.info("warmed at start: \(summary)")
                        }
                    } catch is CancellationError {
                    } catch {
                        logger.error("warming at start stopped: \(error)")
                    }
                }
            }
            do {
                let activity = try await library.activity()
                await index.prepareLists()
                try await cancelWhenGracefulShutdown { try await follow() }
                for await _ in activity.cancelOnGracefulShutdown() {
                    try await cancelWhenGracefulShutdown { try await follow() }
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

    /// Walks the library into the catalog, forgetting what is gone, then warms what the walk
    /// found inserted or changed. A walk that fails is logged; the next burst walks again.
    private func follow() async throws {
        let found = FoundAssets()
        let listing = WarmJob(
            store: index.catalog.store, renderer: library.renderer, renditions: [],
            catalogChanges: { found.add($0) })
        do {
            _ = try await listing.run(forgettingGoneFrom: library)
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            logger.error("the library could not be walked: \(error); the next change walks it again")
        }
        // One entry per walk: the changes feed never shows half of one (a burst's new cover
        // inserted, its old one not yet removed).
        let changes = found.take()
        guard !changes.isEmpty else { return }
        index.note(changes)
        await index.prepareLists()
        let ids = changes.inserted + changes.changed
        var rendered = 0, failed = 0
        for start in stride(from: 0, to: ids.count, by: Self.warmBatch) {
            let slice = Array(ids[start..<min(ids.count, start + Self.warmBatch)])
            let assets = try index.catalog.assets(ids: slice, roots: index.roots)
            do {
                let progress = try await warming.run(slice.compactMap { assets[$0] })
                rendered += progress.rendered
                failed += progress.failed
            } catch is CancellationError {
                throw CancellationError()
            } catch {
                logger.error("library changed; the cache could not follow: \(error)")
            }
        }
        logger.info("library changed: \(ids.count) inserted or changed; \(rendered) rendered, \(failed) failed")
    }
}

/// What a walk changed in the catalog, heard from its writes.
private final class FoundAssets: Sendable {
    private let changes = Mutex(CatalogChanges())

    func add(_ found: CatalogChanges) {
        changes.withLock {
            $0.removed += found.removed
            $0.inserted += found.inserted
            $0.changed += found.changed
        }
    }

    func take() -> CatalogChanges {
        changes.withLock { changes in
            defer { changes = CatalogChanges() }; return changes
        }
    }
}
