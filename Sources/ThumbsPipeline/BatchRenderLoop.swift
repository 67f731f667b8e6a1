import ThumbsImaging
import ThumbsLibrary
import ThumbsSupport

/// Renders every rendition of many assets at batch priority, from one decode per asset, with
/// enough renders queued that the renderer's threads never wait for the next one: the loop
/// behind `thumbs warm`, `thumbs watch` and `thumbs render` of folders.
///
/// Assets come in batches (a library walk, or the assets a change set names); outcomes are
/// handed back one at a time, in the order renders finish. Cancelled (Ctrl-C), it stops taking
/// new assets, lets the renders under way finish and hands them back, then throws
/// `CancellationError`, so that what was rendered can still be kept.
package struct BatchRenderLoop: Sendable {
    /// What became of one asset.
    package struct Outcome: Sendable {
        package let asset: Asset
        /// The thumbnails in the order of the loop's specs; nil when the render was cancelled
        /// before it ran.
        package let result: Result<[Thumbnail], ImagingError>?
    }

    package let renderer: any ThumbnailRendering
    package let specs: [RenditionSpec]

    package init(renderer: any ThumbnailRendering, specs: [RenditionSpec]) {
        self.renderer = renderer
        self.specs = specs
    }

    /// Renders the assets `assets` finds in each of `batches` that `admit` accepts; `absorb`
    /// gets each outcome. The callbacks run one at a time, on the calling task.
    package func run<Batches: AsyncSequence>(
        _ batches: Batches,
        assets: (Batches.Element) async throws -> [Asset],
        admit: (Asset) async throws -> Bool,
        absorb: (Outcome) async throws -> Void
    ) async throws where Batches.Failure == any Error {
        let renderer = renderer, specs = specs
        try await withThrowingTaskGroup(of: Outcome.self) { group in
            var running = 0
            // Enough renders queued that the threads stay busy while the walk probes its next
            // batch and the results are absorbed.
            let window = renderer.workers * 8
            var cancelled = false
            do {
                for try await batch in batches {
                    for asset in try await assets(batch) where try await admit(asset) {
                        if running >= window, let outcome = try await group.next() {
                            running -= 1
                            try await absorb(outcome)
                        }
                        running += 1
                        group.addTask {
                            do {
                                let thumbnails = try await renderer.render(
                                    asset.location, specs: specs, ticket: PriorityTicket(.batch))
                                return Outcome(asset: asset, result: .success(thumbnails))
                            } catch let error as ImagingError {
                                return Outcome(asset: asset, result: .failure(error))
                            } catch {
                                return Outcome(asset: asset, result: nil)
                            }
                        }
                    }
                }
            } catch is CancellationError {
                cancelled = true
            }
            while let outcome = try await group.next() { try await absorb(outcome) }
            if cancelled { throw CancellationError() }
        }
    }
}
