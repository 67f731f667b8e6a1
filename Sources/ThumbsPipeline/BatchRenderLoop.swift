import ThumbsCore
import ThumbsRendering
import ThumbsLibrary
import ThumbsSupport

/// Renders the renditions of many assets at batch priority, from one decode per asset, with
/// enough renders queued that the renderer's threads never wait for the next one: the loop
/// under ``WarmJob``.
///
/// Assets come in batches (a library walk, or the assets a change set names); outcomes are
/// handed back one at a time, in the order renders finish. Cancelled (Ctrl-C), it stops taking
/// new assets, lets the renders under way finish and hands them back, then throws
/// `CancellationError`, so that what was rendered can still be kept.
package struct BatchRenderLoop: Sendable {
    /// What to do for an admitted asset.
    package enum Work: Sendable {
        /// These renditions, from one decode (and the placeholder, with ``makesPlaceholders``).
        case render([RenditionSpec])
        /// Only the placeholder, from a thumbnail made before: no decode of the file.
        case placeholder(from: Thumbnail)
    }

    /// What became of one asset.
    package struct Outcome: Sendable {
        package let asset: Asset
        /// The thumbnails, by the rendition they were made for; nil when the render was cancelled
        /// before it ran, or none was asked (``Work/placeholder(from:)``).
        package let result: Result<[RenditionSpec: Thumbnail], ImagingError>?
        /// The asset's placeholder, when one was asked and could be made.
        package var placeholder: ThumbHash?
    }

    package let renderer: any ThumbnailRendering
    /// Whether a render also makes the asset's placeholder: the one the renderer made with its
    /// smallest thumbnail (by pixels), else that thumbnail decoded and hashed.
    package var makesPlaceholders = false

    package init(renderer: any ThumbnailRendering) {
        self.renderer = renderer
    }

    /// Works on the assets `assets` finds in each of `batches` that `admit` gives work for;
    /// `absorb` gets each outcome. The callbacks run one at a time, on the calling task; the
    /// work (placeholders included) runs in child tasks, a window of them at once.
    package func run<Batches: AsyncSequence>(
        _ batches: Batches,
        assets: (Batches.Element) async throws -> [Asset],
        admit: (Asset) async throws -> Work?,
        absorb: (Outcome) async throws -> Void
    ) async throws where Batches.Failure == any Error {
        let renderer = renderer, makesPlaceholders = makesPlaceholders
        try await withThrowingTaskGroup(of: Outcome.self) { group in
            var running = 0
            // Enough renders queued that the threads stay busy while the walk probes its next
            // batch and the results are absorbed.
            let window = renderer.workers * 8
            var cancelled = false
            do {
                for try await batch in batches {
                    for asset in try await assets(batch) {
                        guard let work = try await admit(asset) else { continue }
                        if running >= window, let outcome = try await group.next() {
                            running -= 1
                            try await absorb(outcome)
                        }
                        running += 1
                        group.addTask {
                            guard case .render(let specs) = work else {
                                return Outcome(
                                    asset: asset, result: nil, placeholder: Self.placeholder(of: work, renderer))
                            }
                            do {
                                let thumbnails = try await renderer.render(
                                    asset.location, specs: specs, ticket: PriorityTicket(.batch))
                                let smallest = thumbnails.min { $0.pixelSize.pixelCount < $1.pixelSize.pixelCount }
                                return Outcome(
                                    asset: asset,
                                    result: .success(Dictionary(zip(specs, thumbnails)) { first, _ in first }),
                                    placeholder: makesPlaceholders
                                        ? smallest.flatMap { $0.placeholder ?? (try? renderer.placeholder(of: $0)) }
                                        : nil)
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
            // Cancelled after the last asset was admitted, nothing above threw: the renders
            // still queued returned nothing, and the run is no less interrupted.
            if cancelled || Task.isCancelled { throw CancellationError() }
        }
    }

    /// The placeholder of a thumbnail made before; nil when it cannot be decoded. Hashed right
    /// here, in the child task (a millisecond or two): queued on the render threads at batch
    /// priority, it would wait behind the whole window of renders.
    private static func placeholder(of work: Work, _ renderer: any ThumbnailRendering) -> ThumbHash? {
        guard case .placeholder(let thumbnail) = work else { return nil }
        return try? renderer.placeholder(of: thumbnail)
    }
}
