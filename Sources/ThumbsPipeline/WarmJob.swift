import Foundation
import ThumbsImaging
import ThumbsLibrary
import ThumbsStore
import ThumbsSupport

/// Brings every configured rendition of photos into the store: one decode per photo for all its
/// renditions, fresh entries skipped, failures remembered, writes batched. Killed or
/// interrupted, it loses only the batch being written; the next run resumes.
///
/// ```swift
/// let job = WarmJob(store: store, renderer: renderer, renditions: specs)
/// let summary = try await job.run(over: library) { progress in print(progress) }
/// ```
public struct WarmJob: Sendable {
    public let store: ThumbnailStore
    public let renderer: any ThumbnailRendering
    public let renditions: [RenditionSpec]
    /// Photos per store transaction. Default: 32.
    public var writeBatch = 32

    public init(store: ThumbnailStore, renderer: any ThumbnailRendering, renditions: [RenditionSpec]) {
        self.store = store
        self.renderer = renderer
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
        public var failure: Failure?

        public init() {}

        /// One photo that could not be rendered, and why.
        public struct Failure: Sendable {
            public var path: String
            public var error: ImagingError
        }

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

    /// Warms every photo of `library`, as the walk finds them; `progress` is called after every
    /// photo (from one task at a time). Returns the final progress. Cancelled, it commits what
    /// was rendered, then throws `CancellationError`.
    public func run(over library: PhotoLibrary, progress: (Progress) -> Void = { _ in }) async throws -> Progress {
        try await run(library.assets(), assets: \.assets, progress: progress)
    }

    /// Warms `assets` (what a change set says was inserted or changed, say), as ``run(over:progress:)``.
    public func run(_ assets: [Asset], progress: (Progress) -> Void = { _ in }) async throws -> Progress {
        try await run([assets].asyncSequence, assets: { $0 }, progress: progress)
    }

    private func run<Batches: AsyncSequence>(
        _ batches: Batches, assets: (Batches.Element) -> [Asset], progress: (Progress) -> Void
    ) async throws -> Progress where Batches.Failure == any Error {
        let store = store
        let started = ContinuousClock.now
        var state = Progress()
        var pending: [ThumbnailStore.ThumbnailEntry] = []
        var pendingPhotos = 0
        // One write in flight while rendering goes on: a commit's fsync does not idle the render
        // threads.
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

        func admit(_ asset: Asset) throws -> Bool {
            guard !asset.isVideo else { return false }
            state.found += 1
            if try keys(of: asset).allSatisfy(store.containsThumbnail) {
                state.fresh += 1
                state.done += 1
                return false
            }
            if try store.failure(for: asset.id, fingerprint: asset.fingerprint) != nil {
                state.skippedFailures += 1
                state.done += 1
                return false
            }
            return true
        }

        func absorb(_ outcome: BatchRenderLoop.Outcome) async throws {
            state.failure = nil
            switch outcome.result {
            case .success(let thumbnails)?:
                state.done += 1
                state.rendered += 1
                state.bytesWritten += thumbnails.reduce(0) { $0 + $1.bytes.count }
                pending += zip(keys(of: outcome.asset), thumbnails).map { .init(key: $0, thumbnail: $1) }
                pendingPhotos += 1
                if pendingPhotos >= writeBatch { try await flush() }
            case .failure(let error)?:
                state.done += 1
                state.failuresByKind[error.kind, default: 0] += 1
                state.failure = Progress.Failure(path: outcome.asset.path, error: error)
                if !error.kind.isTransient {
                    let entry = ThumbnailStore.FailureEntry(
                        assetID: outcome.asset.id, fingerprint: outcome.asset.fingerprint,
                        failure: FailureRecord(error))
                    try await Task.detached { try await store.recordFailures([entry]) }.value
                }
            case nil:
                break  // cancelled before it rendered: not done
            }
            state.elapsed = started.duration(to: .now)
            progress(state)
            state.failure = nil
        }

        do {
            try await BatchRenderLoop(renderer: renderer, specs: renditions).run(
                batches,
                assets: { batch in
                    state.elapsed = started.duration(to: .now)
                    progress(state)
                    return assets(batch)
                },
                admit: admit, absorb: absorb)
            state.walkFinished = true
        } catch {
            // Interrupted or failed: what was rendered is still committed.
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

    private func keys(of asset: Asset) -> [ThumbnailKey] {
        renditions.map { ThumbnailKey(assetID: asset.id, fingerprint: asset.fingerprint, rendition: $0) }
    }
}
