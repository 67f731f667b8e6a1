import Foundation
import ThumbsSupport

extension PhotoLibrary {
    /// Watches the library and yields what changed, each burst of file-system activity coalesced
    /// (about `debounce` of quiet ends a burst) and described against the library as it was
    /// before: only bursts that changed assets are reported. Returns once the library as it is
    /// now has been enumerated (the baseline): every change after that is reported, including
    /// those made while the baseline was taken. Ending the iteration stops watching. The fetch
    /// results described hold every burst frame, as `FetchOptions(includeAllBurstAssets: true)`
    /// fetches them.
    public func watch(debounce: Duration = .milliseconds(500)) async throws -> AsyncThrowingStream<
        ChangeDetails, any Error
    > {
        try await watchWithBaseline(debounce: debounce).changes
    }

    /// As ``watch(debounce:)``, also returning the baseline the first change is described
    /// against: what a listing that is kept current by the changes starts from (no second walk,
    /// and nothing changed between the two goes unseen).
    public func watchWithBaseline(debounce: Duration = .milliseconds(500)) async throws -> (
        baseline: FetchResult, changes: AsyncThrowingStream<ChangeDetails, any Error>
    ) {
        // Watches first, then the baseline: nothing changed in between goes unseen.
        let watcher = try FolderWatcher(roots: roots, includeHidden: includeHidden, debounce: debounce)
        let initial = FetchResult(assets: try await allAssets().assets)
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: ChangeDetails.self)
        let (bursts, burst) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let task = Task { [self] in
            defer { watcher.stop() }
            do {
                var baseline = initial
                watcher.start { burst.yield() }
                for await _ in bursts {
                    let current = FetchResult(assets: try await allAssets().assets)
                    if let changes = ChangeDetails.between(baseline, current) { continuation.yield(changes) }
                    baseline = current
                }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in
            burst.finish()
            task.cancel()
        }
        return (initial, stream)
    }

    /// Watches the library and yields once per burst of file-system activity (about `debounce`
    /// of quiet ends one), without saying what changed: for a caller that finds out itself, with
    /// a walk that passes over unchanged folders (a server kept current through its catalog).
    /// Returns once every folder is watched: a change after that is heard. Ending the iteration
    /// stops watching.
    public func activity(debounce: Duration = .milliseconds(500)) async throws -> AsyncStream<Void> {
        let (roots, includeHidden) = (roots, includeHidden)
        // Watching every folder walks the tree: it blocks, so it runs on the walk's thread.
        let watcher = try await io.run {
            try FolderWatcher(roots: roots, includeHidden: includeHidden, debounce: debounce)
        }
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        watcher.start { continuation.yield() }
        continuation.onTermination = { _ in watcher.stop() }
        return stream
    }
}
