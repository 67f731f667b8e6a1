import Foundation

/// Brings every configured rendition of a library's photos into the store: one decode per photo
/// for all its renditions, fresh entries skipped, failures remembered, writes batched. Killed or
/// interrupted, it loses only the batch being written; the next run resumes.
///
/// ```swift
/// let summary = try await WarmJob(library: library, renditions: specs).run { progress in print(progress) }
/// ```
public struct WarmJob: Sendable {
    public let library: PhotoLibrary
    public let renditions: [RenditionSpec]
    /// Photos per store transaction. Default: 32.
    public var writeBatch = 32

    public init(library: PhotoLibrary, renditions: [RenditionSpec]) {
        self.library = library
        self.renditions = renditions
    }

    /// Where a run is.
    public struct Progress: Sendable, CustomStringConvertible {
        /// Photos dealt with (rendered, fresh, skipped or failed) and photos found so far.
        public var done = 0
        public var found = 0
        public var rendered = 0
        public var fresh = 0
        /// Photos skipped because their file failed before and has not changed since.
        public var skippedFailures = 0
        public var failuresByKind: [ImagingError.Kind: Int] = [:]
        public var bytesWritten = 0
        public var elapsed: Duration = .zero
        /// True once the walk has found everything.
        public var walkFinished = false
        /// The photo that just failed, when this progress reports a failure.
        public var failure: (path: String, error: ImagingError)?

        public init() {}

        public var failed: Int { failuresByKind.values.reduce(0, +) }

        /// Photos per second over the run.
        public var rate: Double {
            elapsed.seconds > 0 ? Double(done) / elapsed.seconds : 0
        }

        /// Seconds to go at the current rate, counting the photos found so far.
        public var estimatedSecondsLeft: Double? {
            rate > 0 ? Double(found - done) / rate : nil
        }

        public var description: String {
            var text = "\(done)/\(found)\(walkFinished ? "" : "+") photos, \(rendered) rendered, \(fresh) fresh"
            if skippedFailures > 0 { text += ", \(skippedFailures) known failures skipped" }
            if failed > 0 { text += ", \(failed) failed" }
            return text + String(format: ", %.1f/s", rate)
        }
    }

    /// Runs the job; `progress` is called after every photo (from one task at a time). Returns
    /// the final progress. Cancelled, it commits what was rendered, then throws.
    public func run(progress: @Sendable (Progress) -> Void = { _ in }) async throws -> Progress {
        let store = try requireStore()
        let renderer = library.renderer
        let renditions = renditions
        let started = ContinuousClock.now
        var state = Progress()
        var pending: [(key: ThumbnailKey, thumbnail: Thumbnail)] = []
        var pendingPhotos = 0
        // One write in flight while rendering goes on: a commit's fsync no longer idles the
        // render threads.
        var writing: Task<Void, any Error>?

        func flush() async throws {
            try await writing?.value
            writing = nil
            guard !pending.isEmpty else { return }
            let batch = pending
            pending = []
            pendingPhotos = 0
            // Not cancelled with the job: what was rendered is committed.
            writing = Task.detached { try await store.putThumbnails(batch) }
        }

        /// Commits everything rendered, and waits for it.
        func commit() async throws {
            try await flush()
            try await writing?.value
            writing = nil
        }

        do {
            try await withThrowingTaskGroup(of: Outcome.self) { group in
                var running = 0
                // Enough renders queued that the threads stay busy while the walk probes its next
                // batch and the results are absorbed.
                let window = renderer.configuration.renderThreads * 8
                func absorb(_ outcome: Outcome) async throws {
                    running -= 1
                    state.done += 1
                    state.failure = nil
                    switch outcome.result {
                    case .success(let thumbnails)?:
                        state.rendered += 1
                        state.bytesWritten += thumbnails.reduce(0) { $0 + $1.bytes.count }
                        pending += zip(outcome.keys, thumbnails).map { ($0, $1) }
                        pendingPhotos += 1
                        if pendingPhotos >= writeBatch { try await flush() }
                    case .failure(let error)?:
                        state.failuresByKind[error.kind, default: 0] += 1
                        state.failure = (outcome.asset.path, error)
                        if !error.kind.isTransient {
                            let record = (outcome.asset.id, outcome.asset.fingerprint, FailureRecord(error))
                            try await Task.detached { try await store.recordFailures([record]) }.value
                        }
                    case nil:
                        state.done -= 1  // cancelled before it rendered: not done
                    }
                    state.elapsed = started.duration(to: .now)
                    progress(state)
                    state.failure = nil
                }
                // Cancelled (Ctrl-C), the walk stops, and the renders already under way are
                // drained and committed below rather than thrown away.
                var cancelled = false
                do {
                    for try await batch in library.assets() {
                        for asset in batch.assets where !asset.isVideo {
                            state.found += 1
                            let keys = renditions.map { ThumbnailKey(assetID: asset.id, fingerprint: asset.fingerprint, rendition: $0) }
                            if try keys.allSatisfy(store.containsThumbnail) {
                                state.fresh += 1
                                state.done += 1
                                continue
                            }
                            if try store.failure(for: asset.id, fingerprint: asset.fingerprint) != nil {
                                state.skippedFailures += 1
                                state.done += 1
                                continue
                            }
                            if running >= window, let outcome = try await group.next() { try await absorb(outcome) }
                            running += 1
                            group.addTask {
                                do {
                                    let thumbnails = try await renderer.render(asset.path, specs: renditions, priority: .batch)
                                    return Outcome(asset: asset, keys: keys, result: .success(thumbnails))
                                } catch let error as ImagingError {
                                    return Outcome(asset: asset, keys: keys, result: .failure(error))
                                } catch {
                                    return Outcome(asset: asset, keys: keys, result: nil)
                                }
                            }
                        }
                        state.elapsed = started.duration(to: .now)
                        progress(state)
                    }
                } catch is CancellationError {
                    cancelled = true
                }
                state.walkFinished = !cancelled
                while let outcome = try await group.next() { try await absorb(outcome) }
                if cancelled { throw CancellationError() }
            }
        } catch {
            try? await commit()
            throw error
        }
        try await commit()
        try await store.flushAccessTimes()
        state.failure = nil
        state.elapsed = started.duration(to: .now)
        progress(state)
        return state
    }

    private struct Outcome: Sendable {
        let asset: Asset
        let keys: [ThumbnailKey]
        /// nil when the render was cancelled before it ran.
        let result: Result<[Thumbnail], ImagingError>?
    }

    private func requireStore() throws -> ThumbnailStore {
        guard let store = library.store else {
            throw StoreError.store("the warm job needs a library opened with a store", "warm")
        }
        return store
    }
}
