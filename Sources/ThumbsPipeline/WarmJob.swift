import Foundation
import ThumbsCore
import ThumbsImaging
import ThumbsLibrary
import ThumbsStore
import ThumbsSupport

/// Brings every configured rendition of photos into the store: one decode per photo for all its
/// renditions, fresh entries skipped, failures remembered, writes batched. Killed or
/// interrupted, it loses only the batch being written; the next run resumes.
///
/// Every photo also gets its placeholder (``/ThumbsCore/ThumbHash``) in the metadata cache:
/// a rendered one from the smallest of its new thumbnails, a fresh one that has none from the
/// smallest of its stored thumbnails, without decoding the file.
///
/// ``outputs`` get their own renditions from the same decode (the desktop's thumbnail cache,
/// say); with no store, they are all the job writes.
///
/// ```swift
/// let job = WarmJob(store: store, renderer: renderer, renditions: specs)
/// let summary = try await job.run(over: library) { progress in print(progress) }
/// ```
public struct WarmJob: Sendable {
    /// Where the renditions go; nil when only ``outputs`` are warmed.
    public let store: ThumbnailStore?
    public let renderer: any ThumbnailRendering
    /// The store's renditions.
    public let renditions: [RenditionSpec]
    /// Where else thumbnails go, each with its own renditions. Default: none.
    public var outputs: [any WarmOutput]
    /// Photos per store transaction. Default: 32.
    public var writeBatch = 32

    /// `renditions` are the store's (none without a store); each of `outputs` names its own.
    public init(
        store: ThumbnailStore?, renderer: any ThumbnailRendering, renditions: [RenditionSpec],
        outputs: [any WarmOutput] = []
    ) {
        self.store = store
        self.renderer = renderer
        self.renditions = store == nil ? [] : renditions
        self.outputs = outputs
    }

    /// Where a run is.
    public struct Progress: Sendable, CustomStringConvertible {
        /// Photos dealt with (rendered, fresh, skipped or failed) and photos found so far.
        public var done = 0
        public var found = 0
        public var rendered = 0
        public var fresh = 0
        /// Placeholders made: one per rendered photo, and one per fresh photo that had none.
        public var placeholders = 0
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
            var text = "\(done)/\(found)\(walkFinished ? "" : "+") assets, \(rendered) rendered, \(fresh) fresh"
            if skippedFailures > 0 { text += ", \(skippedFailures) known failures skipped" }
            if failed > 0 { text += ", \(failed) failed" }
            return text + String(format: ", %.1f/s", rate)
        }
    }

    /// Warms every photo of `library`, as the walk finds them; `progress` is called after every
    /// photo (from one task at a time). Returns the final progress. Cancelled, it commits what
    /// was rendered, then throws `CancellationError`.
    ///
    /// A file the walk found but could not list as an asset (named like a photo but empty or no
    /// media at all, unreadable, or one a decoder crashed on before) is a failure of the run like
    /// a failed render, with its own event.
    public func run(over library: PhotoLibrary, progress: (Progress) -> Void = { _ in }) async throws -> Progress {
        try await run(
            library.assets(), assets: \.assets,
            failures: { batch in
                batch.issues.compactMap { issue in
                    issue.failure.map { (Progress.Failure(path: issue.fullPath, error: $0), issue.unlistedAsset) }
                }
            }, progress: progress)
    }

    /// Warms `assets` (what a change set says was inserted or changed, say), as ``run(over:progress:)``.
    public func run(_ assets: [Asset], progress: (Progress) -> Void = { _ in }) async throws -> Progress {
        try await run([assets].asyncSequence, assets: { $0 }, failures: { _ in [] }, progress: progress)
    }

    private func run<Batches: AsyncSequence>(
        _ batches: Batches, assets: (Batches.Element) -> [Asset],
        failures: (Batches.Element) -> [(Progress.Failure, Asset?)], progress: (Progress) -> Void
    ) async throws -> Progress where Batches.Failure == any Error {
        let store = store
        let started = ContinuousClock.now
        var state = Progress()
        var pending: [ThumbnailStore.ThumbnailEntry] = []
        var pendingPhotos = 0
        var placeholders: [ThumbnailStore.PlaceholderEntry] = []
        // One write in flight while rendering goes on: a commit's fsync does not idle the render
        // threads.
        var writing: Task<Void, any Error>?

        func flush() async throws {
            try await writing?.value
            writing = nil
            guard !pending.isEmpty || !placeholders.isEmpty else { return }
            let batch = pending, made = placeholders
            pending = []
            pendingPhotos = 0
            placeholders = []
            // Not cancelled with the job: what was rendered is committed. Placeholders after the
            // thumbnails they were made from.
            guard let store else { return }
            writing = Task.detached {
                try await store.putThumbnails(batch)
                try await store.setPlaceholders(made)
            }
        }

        /// Commits everything rendered, and waits for it.
        func commit() async throws {
            try await flush()
            try await writing?.value
            writing = nil
        }

        // Assets rendered for the outputs alone: the store has their renditions already.
        var storeCurrent: Set<String> = []

        func admit(_ asset: Asset) throws -> BatchRenderLoop.Work? {
            state.found += 1
            let inStore = try store.map { store in try keys(of: asset).allSatisfy(store.containsThumbnail) } ?? true
            let held = outputs.map { $0.state(of: asset) }
            if inStore && held.allSatisfy({ $0 == .current }) {
                state.fresh += 1
                state.done += 1
                return try placeholderWork(for: asset)
            }
            let memo = try store?.failure(for: asset.id, fingerprint: asset.fingerprint)
            if memo != nil || (store == nil && !held.isEmpty && held.allSatisfy({ $0 == .failed })) {
                // An output that has no record of the failure gets the store's.
                if let memo {
                    for (output, held) in zip(outputs, held) where held == .missing {
                        try output.recordFailure(memo, of: asset)
                    }
                }
                state.skippedFailures += 1
                state.done += 1
                return nil
            }
            if inStore && store != nil { storeCurrent.insert(asset.id) }
            return .render
        }

        /// A file that failed: counted, reported with the next progress, and remembered by the
        /// outputs (unless the failure may pass) when it is known as `file`.
        func fail(_ failure: Progress.Failure, of file: Asset?) throws {
            state.done += 1
            state.failuresByKind[failure.error.kind, default: 0] += 1
            state.failure = failure
            guard let file, !failure.error.kind.isTransient else { return }
            for output in outputs { try output.recordFailure(FailureRecord(failure.error), of: file) }
        }

        func absorb(_ outcome: BatchRenderLoop.Outcome) async throws {
            state.failure = nil
            if let placeholder = outcome.placeholder, store != nil {
                state.placeholders += 1
                placeholders.append(
                    .init(assetID: outcome.asset.id, fingerprint: outcome.asset.fingerprint, placeholder: placeholder))
            }
            switch outcome.result {
            case .success(let thumbnails)?:
                state.done += 1
                state.rendered += 1
                var rest = thumbnails[...]
                let stored = rest.prefix(renditions.count)
                rest = rest.dropFirst(renditions.count)
                for output in outputs {
                    let written = rest.prefix(output.renditions.count)
                    rest = rest.dropFirst(output.renditions.count)
                    try output.write(Array(written), of: outcome.asset)
                    state.bytesWritten += written.reduce(0) { $0 + $1.bytes.count }
                }
                if storeCurrent.remove(outcome.asset.id) == nil, store != nil {
                    state.bytesWritten += stored.reduce(0) { $0 + $1.bytes.count }
                    pending += zip(keys(of: outcome.asset), stored).map { .init(key: $0, thumbnail: $1) }
                    pendingPhotos += 1
                }
            case .failure(let error)?:
                try fail(Progress.Failure(path: outcome.asset.path, error: error), of: outcome.asset)
                if !error.kind.isTransient, let store {
                    let entry = ThumbnailStore.FailureEntry(
                        assetID: outcome.asset.id, fingerprint: outcome.asset.fingerprint, failure: FailureRecord(error)
                    )
                    try await Task.detached { try await store.recordFailures([entry]) }.value
                }
            case nil:
                break  // a placeholder alone (counted when admitted), or cancelled before it rendered
            }
            // Placeholders are a few dozen bytes: alone, many more of them fill a transaction.
            if pendingPhotos >= writeBatch || placeholders.count >= writeBatch * 8 { try await flush() }
            state.elapsed = started.duration(to: .now)
            progress(state)
            state.failure = nil
        }

        do {
            var loop = BatchRenderLoop(renderer: renderer, specs: renditions + outputs.flatMap(\.renditions))
            loop.makesPlaceholders = store != nil
            try await loop.run(
                batches,
                assets: { batch in
                    for (failure, file) in failures(batch) {
                        state.found += 1
                        try fail(failure, of: file)
                        progress(state)
                    }
                    state.failure = nil
                    state.elapsed = started.duration(to: .now)
                    progress(state)
                    // Largest first: a photo many times the others' size, left to the end of a
                    // batch, would have one render thread working alone while the others wait for
                    // the next batch (or the run ends).
                    return assets(batch).sorted { ($0.pixelSize?.pixelCount ?? 0) > ($1.pixelSize?.pixelCount ?? 0) }
                },
                admit: admit, absorb: absorb)
            state.walkFinished = true
        } catch {
            // Interrupted or failed: what was rendered is still committed.
            try? await commit()
            throw error
        }
        try await commit()
        try await store?.flushAccessTimes()
        state.failure = nil
        state.elapsed = started.duration(to: .now)
        progress(state)
        return state
    }

    /// Forgets `assets`, whose files were removed: their thumbnails and metadata in the store,
    /// and what every output holds of them.
    public func forget(_ assets: [Asset]) async throws {
        if let store {
            for asset in assets { try await store.removeThumbnails(of: asset.id) }
            try await store.removeMetadata(of: assets.map(\.id))
        }
        for output in outputs {
            for asset in assets { try output.remove(asset) }
        }
    }

    /// For a photo whose renditions are all stored: its placeholder, from the smallest of them,
    /// when its metadata record (of this version) has none. Nil when it has one, or the store
    /// has no record of this version to keep one in.
    private func placeholderWork(for asset: Asset) throws -> BatchRenderLoop.Work? {
        guard let store, asset.placeholder == nil, let metadata = try store.metadata(for: asset.id),
            metadata.fingerprint == asset.fingerprint, metadata.placeholder == nil,
            let smallest = try store.smallestThumbnail(of: asset.id, fingerprint: asset.fingerprint)
        else { return nil }
        return .placeholder(from: smallest.thumbnail)
    }

    private func keys(of asset: Asset) -> [ThumbnailKey] {
        renditions.map { ThumbnailKey(assetID: asset.id, fingerprint: asset.fingerprint, rendition: $0) }
    }
}
