import ThumbsCore
import ThumbsRendering
import ThumbsLibrary
import ThumbsStore

/// Somewhere a warm puts thumbnails: the store (``StoreWarmOutput``), the desktop's thumbnail
/// cache, a folder of files (``FolderWarmOutput``). ``WarmJob`` asks each output what it lacks
/// of an asset and renders what they lack from one decode; each gets its own renditions.
///
/// ```swift
/// let job = WarmJob(renderer: renderer, outputs: [StoreWarmOutput(store: store, renditions: specs), desktopCache])
/// ```
///
/// A job calls an output from one task at a time.
public protocol WarmOutput: Sendable {
    /// What it keeps of every asset.
    var renditions: [RenditionSpec] { get }

    /// Whether it keeps each asset's placeholder (``keep(_:of:)``). When one output does, every
    /// render also makes the asset's placeholder. Default: false.
    var keepsPlaceholders: Bool { get }

    /// What it holds for `asset`: nothing is rendered for an asset that every output holds
    /// current, and an output that holds it current gets nothing of its render.
    func state(of asset: Asset) async throws -> WarmOutputState

    /// The failure it remembers for `asset` as it is now (a failure memo), which spares the file
    /// a render; the outputs that have no record of it get this one. Default: nil.
    func knownFailure(of asset: Asset) async throws -> FailureRecord?

    /// For an asset it holds current and whose placeholder it lacks: the thumbnail to make the
    /// placeholder from, without decoding the file. Default: nil.
    func placeholderSource(for asset: Asset) async throws -> Thumbnail?

    /// Keeps the thumbnails of `asset`: one for each of ``renditions``, by rendition (more may
    /// be there, made for other outputs).
    func write(_ thumbnails: [RenditionSpec: Thumbnail], of asset: Asset) async throws

    /// Keeps the placeholder of `asset`, after its thumbnails. Default: nothing.
    func keep(_ placeholder: ThumbHash, of asset: Asset) async throws

    /// Records that `asset` cannot be rendered, so that it is not tried again until it changes.
    /// Called for failures about the file's content, not the moment
    /// (``/ThumbsLibrary/FailureMemo/remembers(_:for:)``).
    func recordFailure(_ failure: FailureRecord, of asset: Asset) async throws

    /// Records the failure of a file the library walk found but could not list as an asset (an
    /// empty file named like a photo, say). Default: ``recordFailure(_:of:)``.
    func recordUnlistedFailure(_ failure: FailureRecord, of file: Asset) async throws

    /// Forgets what it holds for assets whose files were removed.
    func remove(_ assets: [Asset]) async throws

    /// Takes the assets a run found, as it found them (before their renders, failed ones
    /// included): an output that keeps a listing of the library keeps them (the store's
    /// ``/ThumbsLibrary/LibraryCatalog``). Default: nothing.
    func list(_ assets: [Asset]) async throws

    /// Takes that the walks of `roots` were listed whole (after what was gone was removed).
    /// Default: nothing.
    func listedWhole(roots: [String]) async throws

    /// Keeps what it was given, once a run is over: when it ends, and when it is interrupted or
    /// fails. Default: nothing.
    func finish() async throws
}

extension WarmOutput {
    public var keepsPlaceholders: Bool { false }

    public func knownFailure(of asset: Asset) async throws -> FailureRecord? { nil }

    public func placeholderSource(for asset: Asset) async throws -> Thumbnail? { nil }

    public func keep(_ placeholder: ThumbHash, of asset: Asset) async throws {}

    public func recordUnlistedFailure(_ failure: FailureRecord, of file: Asset) async throws {
        try await recordFailure(failure, of: file)
    }

    public func list(_ assets: [Asset]) async throws {}

    public func listedWhole(roots: [String]) async throws {}

    public func finish() async throws {}
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
