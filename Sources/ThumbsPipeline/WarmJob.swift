import Foundation
import ThumbsCore
import ThumbsRendering
import ThumbsLibrary
import ThumbsStore
import ThumbsSupport

/// Brings thumbnails of many assets into every output: the loop behind `thumbs warm`,
/// `thumbs watch`, the server's warm and watch, and `thumbs render` of folders.
///
/// For each asset it asks each output what it holds: an asset every output holds current is
/// fresh; one an output remembers a failure for is skipped (and the outputs with no record of
/// it get that one); otherwise the renditions the other outputs lack are rendered from one
/// decode, and each of them gets its own. Failures are recorded by every output, unless they
/// may pass (``/ThumbsLibrary/FailureMemo/remembers(_:for:)``). Killed or interrupted, it loses
/// only what the outputs had not kept; the next run resumes.
///
/// ```swift
/// let job = WarmJob(store: store, renderer: renderer, renditions: specs)
/// let summary = try await job.run(over: library) { event in print(event) }
/// ```
public struct WarmJob: Sendable {
    public let renderer: any ThumbnailRendering
    /// Where thumbnails go, each output with its own renditions.
    public let outputs: [any WarmOutput]

    public init(renderer: any ThumbnailRendering, outputs: [any WarmOutput]) {
        self.renderer = renderer
        self.outputs = outputs
    }

    /// The store's `renditions` (as a ``StoreWarmOutput``, `catalogChanges` hearing what each of
    /// its writes changed in the catalog's listing), then `outputs`.
    public init(
        store: ThumbnailStore, renderer: any ThumbnailRendering, renditions: [RenditionSpec],
        outputs: [any WarmOutput] = [], catalogChanges: (@Sendable (CatalogChanges) -> Void)? = nil
    ) {
        self.init(
            renderer: renderer,
            outputs: [StoreWarmOutput(store: store, renditions: renditions, catalogChanges: catalogChanges)] + outputs)
    }

    /// Warms every asset of `library`, as the walk finds them; `events` hears about every asset
    /// (from one task at a time). Returns the final progress. Cancelled, the outputs keep what
    /// was rendered, then it throws `CancellationError`.
    ///
    /// A file the walk found but could not list as an asset (named like a photo but empty or no
    /// media at all, unreadable, or one a decoder crashed on before) is a failure of the run like
    /// a failed render, with its own event.
    public func run(over library: PhotoLibrary, events: (Event) -> Void = { _ in }) async throws -> Progress {
        try await run([.library(library)], events: events)
    }

    /// Warms every asset of `library` as ``run(over:events:)`` does, and forgets from every
    /// output the files gone since the last such run (the walk keeps the library's folder
    /// listings in its store: ``/ThumbsLibrary/PhotoLibrary/assets(batchSize:keepingListings:)``).
    /// A root that holds no file where files were listed is taken for a disk not mounted: nothing
    /// of it is forgotten.
    public func run(forgettingGoneFrom library: PhotoLibrary, events: (Event) -> Void = { _ in }) async throws
        -> Progress
    {
        try await run([.libraryForgettingGone(library)], events: events)
    }

    /// Warms `assets` (what a change set says was inserted or changed, say), as
    /// ``run(over:events:)``.
    public func run(_ assets: [Asset], events: (Event) -> Void = { _ in }) async throws -> Progress {
        try await run([.batch(WarmBatch(assets: assets))], events: events)
    }

    /// Warms what `sources` hold, one after the other, as one run.
    public func run(_ sources: [WarmBatch.Source], events: (Event) -> Void = { _ in }) async throws -> Progress {
        // A store alone keeps records of the folders a run left with nothing to do, which its
        // next run passes over: with other outputs, each would have to hold the folder too.
        let storeOutput = outputs.count == 1 ? outputs[0] as? StoreWarmOutput : nil
        var run = WarmRun(outputs: outputs, warmedFolderOutput: storeOutput)
        var loop = BatchRenderLoop(renderer: renderer)
        loop.makesPlaceholders = outputs.contains { $0.keepsPlaceholders }
        let batches = WarmBatch.Batches(
            sources: sources, warmedFolders: storeOutput.map { ($0.store, $0.warmedFolderContext) })
        do {
            try await loop.run(
                batches, assets: { try await run.take($0, events: events) },
                admit: { try await run.admit($0) }, absorb: { try await run.absorb($0, events: events) })
        } catch {
            // Interrupted or failed: what was rendered is still kept.
            for output in outputs { try? await output.finish() }
            throw error
        }
        for output in outputs { try await output.finish() }
        return run.finish(events: events)
    }

    /// Forgets `assets`, whose files were removed: what every output holds of them.
    public func forget(_ assets: [Asset]) async throws {
        for output in outputs { try await output.remove(assets) }
    }
}
