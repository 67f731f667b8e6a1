import ThumbsCore
import ThumbsRendering
import ThumbsLibrary
import ThumbsStore
import ThumbsSupport

/// What became of one final render the manager started: counted by benchmarks and statistics.
///
/// ```swift
/// let rendered = Atomic<Int>(0)
/// let manager = CachingImageManager(renderer: renderer, store: store) { event in
///     if event.outcome == .rendered { rendered.add(1, ordering: .relaxed) }
/// }
/// ```
/// One event per render however many requests shared it; memory and store hits, embedded
/// previews and cropped requests start no render and send none.
public struct RenderEvent: Sendable, Hashable {
    public enum Outcome: String, Sendable, Hashable {
        /// Decoded and encoded; the thumbnail was kept in memory and written to the store.
        case rendered
        /// Every request waiting for it went away before its decode started, so none ran.
        case cancelled
        /// The file could not be rendered (the requests got the ``/ThumbsCore/ImagingError``).
        case failed
    }

    /// The ``/ThumbsLibrary/Asset/id`` of the photo rendered.
    public var assetID: String
    public var rendition: RenditionSpec
    /// The priority the render was queued at: that of the request that started it.
    public var priority: WorkPriority
    public var outcome: Outcome

    package init(assetID: String, rendition: RenditionSpec, priority: WorkPriority, outcome: Outcome) {
        self.assetID = assetID
        self.rendition = rendition
        self.priority = priority
        self.outcome = outcome
    }
}

/// Called on the thread that finished the render: keep it short and thread-safe.
public typealias RenderEventHandler = @Sendable (RenderEvent) -> Void
