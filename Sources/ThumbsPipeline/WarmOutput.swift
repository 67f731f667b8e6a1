import ThumbsCore
import ThumbsImaging
import ThumbsLibrary
import ThumbsStore

/// Somewhere besides the store that a warm puts thumbnails: the desktop's thumbnail cache, say.
/// Its renditions are made from the same decode as the store's, one decode per photo for all.
///
/// ```swift
/// let job = WarmJob(store: store, renderer: renderer, renditions: specs, outputs: [desktopCache])
/// ```
public protocol WarmOutput: Sendable {
    /// What it keeps of every asset, in the order ``write(_:of:)`` gets them.
    var renditions: [RenditionSpec] { get }

    /// What it holds for `asset`: nothing is rendered for an asset that every output (and the
    /// store) holds current.
    func state(of asset: Asset) -> WarmOutputState

    /// Keeps the thumbnails of `asset`, in the order of ``renditions``.
    func write(_ thumbnails: [Thumbnail], of asset: Asset) throws

    /// Records that `asset` cannot be rendered, so that it is not tried again until it changes.
    /// Called for failures about the file's content, not the moment
    /// (``/ThumbsCore/ImagingError/Kind/isTransient``).
    func recordFailure(_ failure: FailureRecord, of asset: Asset) throws

    /// Forgets what it holds for an asset whose file was removed.
    func remove(_ asset: Asset) throws
}

/// What a ``WarmOutput`` holds for an asset.
public enum WarmOutputState: Sendable, Hashable {
    /// Nothing current: the asset is rendered for it.
    case missing
    /// Every rendition, made from the asset's file as it is now.
    case current
    /// A record that the file as it is now cannot be rendered.
    case failed
}
