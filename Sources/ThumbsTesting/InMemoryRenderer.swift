import Synchronization
import ThumbsCore
import ThumbsRendering
import ThumbsSupport

/// A renderer that decodes nothing, for tests of code built on Thumbs: what an app gives a
/// `CachingImageManager` or a `PhotoLibrary` to test its own code without libvips, as swift-log
/// ships `InMemoryLogHandler`.
///
/// A render answers at once with thumbnails of each spec's size whose bytes name the file (not
/// an image: nothing decodes them), unless ``failure`` is set (every render fails with it) or
/// ``holdsRenders`` is (every render waits until ``release()`` or its task's cancellation, as a
/// long decode would). An inspection opens the file beneath its root, as a real renderer does,
/// and reads its type from its first bytes; an asset's header says ``pixelSize``. Every render is
/// counted in ``renders``.
///
/// ```swift
/// let renderer = InMemoryRenderer()
/// let manager = CachingImageManager(renderer: renderer, store: store)
/// let image = try await manager.image(for: asset, targetSize: size, contentMode: .aspectFill)
/// #expect(renderer.renders == 1)
/// ```
public final class InMemoryRenderer: ThumbnailRendering {
    /// The size an inspected asset's header says.
    public let pixelSize: PixelSize
    public let workers: Int
    private let state = Mutex(State())

    private struct State {
        var renders = 0
        var failure: ImagingError?
        var holds = false
        /// Renders waiting for release, by their number; the numbers of those cancelled.
        var held: [Int: CheckedContinuation<Void, Never>] = [:]
        var cancelled: Set<Int> = []
    }

    public init(workers: Int = 1, pixelSize: PixelSize = PixelSize(width: 640, height: 480)) {
        self.workers = max(1, workers)
        self.pixelSize = pixelSize
    }

    /// How many renders started, crops included.
    public var renders: Int { state.withLock { $0.renders } }

    /// What every render and inspection fails with from now on; nil renders again.
    public var failure: ImagingError? {
        get { state.withLock { $0.failure } }
        set { state.withLock { $0.failure = newValue } }
    }

    /// Whether renders from now on wait for ``release()`` (or their task's cancellation) before
    /// they answer.
    public var holdsRenders: Bool {
        get { state.withLock { $0.holds } }
        set { state.withLock { $0.holds = newValue } }
    }

    /// Lets every waiting render answer, and the next ones answer at once.
    public func release() {
        let held = state.withLock { state in
            state.holds = false
            defer { state.held = [:] }
            return state.held.values
        }
        for render in held { render.resume() }
    }

    public func render(_ location: ImageLocation, specs: [RenditionSpec], ticket: PriorityTicket) async throws
        -> [Thumbnail]
    {
        let (failure, number) = state.withLock { state in
            state.renders += 1
            return (state.failure, state.renders)
        }
        try await waitWhileHeld(number)
        if let failure { throw failure }
        return specs.map { Thumbnail(bytes: Array(location.description.utf8), pixelSize: $0.size, format: $0.format) }
    }

    public func render(_ location: ImageLocation, spec: RenditionSpec, crop: NormalizedRect, priority: WorkPriority)
        async throws -> Thumbnail
    {
        try await render(location, specs: [spec], ticket: PriorityTicket(priority))[0]
    }

    /// None: an in-memory file has no embedded preview.
    public func embeddedPreview(
        _ location: ImageLocation, format: ThumbnailFormat, quality: Int, priority: WorkPriority
    ) async throws -> Thumbnail? {
        nil
    }

    public func inspect(_ location: ImageLocation) async throws -> Inspection {
        if let failure { throw failure }
        var unchecked = location
        unchecked.expectedFingerprint = nil
        let source = try ImageSource(opened: unchecked)
        let properties =
            source.mediaType.isAsset
            ? ImageProperties(mediaType: source.mediaType, pixelSize: pixelSize, fingerprint: source.fingerprint) : nil
        return Inspection(
            mediaType: source.mediaType, fingerprint: source.fingerprint, properties: properties, problem: nil,
            changedWhileRead: false)
    }

    /// A grey placeholder, the same for every thumbnail.
    public func placeholder(of thumbnail: Thumbnail) throws(ImagingError) -> ThumbHash {
        ThumbHash(rgba: [128, 128, 128, 255], width: 1, height: 1)
    }

    /// Waits while renders are held, until ``release()`` or the task's cancellation.
    private func waitWhileHeld(_ number: Int) async throws {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (render: CheckedContinuation<Void, Never>) in
                let answersNow = state.withLock { state in
                    guard state.holds, !state.cancelled.contains(number) else { return true }
                    state.held[number] = render
                    return false
                }
                if answersNow { render.resume() }
            }
        } onCancel: {
            let render = state.withLock { state in
                state.cancelled.insert(number)
                return state.held.removeValue(forKey: number)
            }
            render?.resume()
        }
        try Task.checkCancellation()
    }
}
