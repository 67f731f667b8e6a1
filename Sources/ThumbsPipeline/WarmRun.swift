import ThumbsCore
import ThumbsRendering
import ThumbsLibrary
import ThumbsStore

/// One run of a ``WarmJob``: what it has counted, and which outputs each asset under way is
/// rendered for. Driven by ``BatchRenderLoop``, one call at a time.
struct WarmRun {
    let outputs: [any WarmOutput]
    private let started = ContinuousClock.now
    private var progress = WarmJob.Progress()
    /// For each asset being rendered (by id; one entry per admission): the outputs that lack it,
    /// by index.
    private var receivers: [String: [[Int]]] = [:]
    /// The output that keeps the records of the folders left with nothing to do, in a run whose
    /// walks pass over such folders.
    private let warmedFolderOutput: StoreWarmOutput?
    private var warmedFolders = WarmedFolderTally()

    init(outputs: [any WarmOutput], warmedFolderOutput: StoreWarmOutput? = nil) {
        self.outputs = outputs
        self.warmedFolderOutput = warmedFolderOutput
    }

    /// The assets of `batch` to render, largest first; its failures counted and reported.
    mutating func take(_ batch: WarmBatch, events: (WarmJob.Event) -> Void) async throws -> [Asset] {
        for failure in batch.failures {
            progress.found += 1
            try await fail(failure, listed: false, events: events)
            events(.progress(progress))
        }
        for issue in batch.issues { events(.issue(issue)) }
        if !batch.gone.isEmpty {
            for output in outputs { try await output.remove(batch.gone) }
            progress.forgotten += batch.gone.count
        }
        if !batch.assets.isEmpty {
            for output in outputs { try await output.list(batch.assets) }
        }
        if let roots = batch.walkedRoots {
            for output in outputs { try await output.listedWhole(roots: roots) }
        }
        progress.recognised += batch.recognised
        if batch.warmedAssets > 0 {
            progress.found += batch.warmedAssets
            progress.fresh += batch.warmedAssets
            progress.freshInWarmedFolders += batch.warmedAssets
            progress.done += batch.warmedAssets
        }
        if batch.folderEnds != nil, let output = warmedFolderOutput {
            try await output.keep(try await warmedFolders.take(batch) { try await output.removalGeneration() })
        }
        progress.elapsed = started.duration(to: .now)
        events(.progress(progress))
        // Largest first: a photo many times the others' size, left to the end of a batch, would
        // have one render thread working alone while the others wait for the next batch (or the
        // run ends).
        return batch.assets.sorted { ($0.pixelSize?.pixelCount ?? 0) > ($1.pixelSize?.pixelCount ?? 0) }
    }

    /// What to do for `asset`: nothing when every output holds it current (but a placeholder an
    /// output lacks), or when an output remembers it failed; else render what the others lack.
    mutating func admit(_ asset: Asset) async throws -> BatchRenderLoop.Work? {
        progress.found += 1
        var states: [WarmOutputState] = []
        for output in outputs { states.append(try await output.state(of: asset)) }
        if states.allSatisfy({ $0 == .current }) {
            progress.fresh += 1
            progress.done += 1
            for output in outputs {
                if let source = try await output.placeholderSource(for: asset) {
                    try await keep(warmedFolders.admitted(asset, working: true))
                    return .placeholder(from: source)
                }
            }
            try await keep(warmedFolders.admitted(asset, working: false))
            return nil
        }
        if try await skipsKnownFailure(of: asset, states: states) {
            progress.skippedFailures += 1
            progress.done += 1
            try await keep(warmedFolders.admitted(asset, working: false, clean: false))
            return nil
        }
        try await keep(warmedFolders.admitted(asset, working: true))
        let lacking = states.indices.filter { states[$0] != .current }
        receivers[asset.id, default: []].append(lacking)
        var specs: [RenditionSpec] = []
        for index in lacking {
            for spec in outputs[index].renditions where !specs.contains(spec) { specs.append(spec) }
        }
        return .render(specs)
    }

    /// Keeps the records of folders left with nothing to do, after what was given them.
    private func keep(_ folders: [WarmedFolder]) async throws {
        guard !folders.isEmpty, let warmedFolderOutput else { return }
        try await warmedFolderOutput.keep(folders)
    }

    /// Whether `asset` failed before, as an output remembers (the outputs that have no record of
    /// it get that output's), or as every output records.
    private func skipsKnownFailure(of asset: Asset, states: [WarmOutputState]) async throws -> Bool {
        for (index, output) in outputs.enumerated() {
            guard let known = try await output.knownFailure(of: asset) else { continue }
            for (other, state) in zip(outputs.indices, states) where other != index && state == .missing {
                try await outputs[other].recordFailure(known, of: asset)
            }
            return true
        }
        return states.allSatisfy { $0 == .failed }
    }

    /// Hands a render's thumbnails to the outputs that lacked them, and its placeholder to
    /// those that keep placeholders.
    mutating func absorb(_ outcome: BatchRenderLoop.Outcome, events: (WarmJob.Event) -> Void) async throws {
        let asset = outcome.asset
        let lacking = receivers[asset.id]?.first ?? []
        receivers[asset.id]?.removeFirst()
        if receivers[asset.id]?.isEmpty == true { receivers[asset.id] = nil }
        switch outcome.result {
        case .success(let thumbnails)?:
            progress.done += 1
            progress.rendered += 1
            if thumbnails.values.contains(where: \.isPartial) {
                progress.partial += 1
                events(.partial(asset))
            }
            for index in lacking {
                let output = outputs[index]
                try await output.write(thumbnails, of: asset)
                progress.bytesWritten += output.renditions.reduce(0) { $0 + (thumbnails[$1]?.bytes.count ?? 0) }
            }
        case .failure(let error)?:
            try await fail(WarmJob.Failure(path: asset.path, error: error, asset: asset), listed: true, events: events)
        case nil:
            break  // a placeholder alone (counted when admitted), or cancelled before it rendered
        }
        if let placeholder = outcome.placeholder {
            progress.placeholders += 1
            for output in outputs where output.keepsPlaceholders { try await output.keep(placeholder, of: asset) }
        }
        // Kept: rendered, or its placeholder made from a thumbnail kept before.
        let kept: Bool
        switch outcome.result {
        case .success?: kept = true
        case .failure?: kept = false
        case nil: kept = outcome.placeholder != nil
        }
        try await keep(warmedFolders.cameBack(asset, clean: kept))
        progress.elapsed = started.duration(to: .now)
        events(.progress(progress))
    }

    /// A file that failed: counted, reported, and recorded by every output when the failure is
    /// one to remember (``/ThumbsLibrary/FailureMemo/remembers(_:for:)``).
    private mutating func fail(
        _ failure: WarmJob.Failure, listed: Bool, events: (WarmJob.Event) -> Void
    ) async throws {
        progress.done += 1
        progress.failuresByKind[failure.error.kind, default: 0] += 1
        events(.failed(failure))
        guard let asset = failure.asset, FailureMemo.remembers(failure.error, for: asset.fingerprint) else { return }
        let record = FailureRecord(failure.error)
        for output in outputs {
            if listed {
                try await output.recordFailure(record, of: asset)
            } else {
                try await output.recordUnlistedFailure(record, of: asset)
            }
        }
    }

    /// The final progress, once the walk is over and the outputs have kept everything.
    mutating func finish(events: (WarmJob.Event) -> Void) -> WarmJob.Progress {
        progress.walkFinished = true
        progress.elapsed = started.duration(to: .now)
        events(.progress(progress))
        return progress
    }
}
