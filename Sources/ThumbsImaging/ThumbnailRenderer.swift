import Synchronization
import ThumbsSupport

/// Probes files and renders thumbnails with libvips, off Swift's cooperative threads.
///
/// Every call runs on one of the renderer's render threads (`BlockingThreadPool`), so any number
/// of concurrent callers (a task group, many requests) suspend instead of blocking, and at most
/// ``ImagingConfiguration/workers`` decodes are in flight; waiting work starts by
/// ``/ThumbsSupport/WorkPriority``.
/// ```swift
/// let renderer = ThumbnailRenderer()
/// let spec = RenditionSpec(size: PixelSize(width: 256, height: 256), contentMode: .aspectFill)
/// let thumbnail = try await renderer.render("/photos/IMG_0001.JPG", spec: spec)
/// ```
/// Errors are ``ImagingError`` (or `CancellationError` when the task was cancelled before its
/// render started).
public final class ThumbnailRenderer: ThumbnailRendering {
    public let configuration: ImagingConfiguration
    let core: VipsRenderer
    /// The render threads; other libvips work of the package (charts, contact sheets) runs here
    /// too, so that it never blocks a cooperative thread.
    package let pool: BlockingThreadPool
    private let decodes = Atomic<Int>(0)

    public init(configuration: ImagingConfiguration = ImagingConfiguration()) {
        self.configuration = configuration
        core = VipsRenderer(
            pixelLimit: configuration.pixelLimit, decodeMemoryBudget: configuration.decodeMemoryBudget,
            decodeTimeLimit: configuration.decodeTimeLimit)
        pool = BlockingThreadPool(name: "thumbs-render", threadCount: configuration.workers)
    }

    public var workers: Int { configuration.workers }

    /// Full decodes started so far (renders; not probes or embedded previews): what coalescing
    /// and the cache save is counted here, by tests and benchmarks.
    package var decodeCount: Int { decodes.load(ordering: .relaxed) }

    /// Reads a file's type, upright size, orientation, capture date, camera and embedded preview
    /// size from its header, without decoding pixels.
    public func probe(_ path: String, priority: WorkPriority = .interactive) async throws -> ImageProperties {
        try await probe(ImageLocation(path: path), priority: priority)
    }

    /// As ``probe(_:priority:)-(String,_)``, for a file beneath a library root.
    public func probe(_ location: ImageLocation, priority: WorkPriority = .interactive) async throws -> ImageProperties
    {
        let core = core
        return try await pool.run(priority: priority) { try core.probe(location) }
    }

    /// Renders one rendition with shrink-on-load.
    public func render(_ path: String, spec: RenditionSpec, priority: WorkPriority = .interactive) async throws
        -> Thumbnail
    {
        try await render(path, specs: [spec], priority: priority)[0]
    }

    /// Renders several renditions of one file from one decode; results follow `specs`' order.
    public func render(
        _ path: String, specs: [RenditionSpec], priority: WorkPriority = .interactive
    ) async throws -> [Thumbnail] {
        try await render(path, specs: specs, ticket: PriorityTicket(priority))
    }

    /// As ``render(_:specs:priority:)``, queued at `ticket`'s priority, which may be raised while
    /// the render waits.
    public func render(_ path: String, specs: [RenditionSpec], ticket: PriorityTicket) async throws -> [Thumbnail] {
        try await render(ImageLocation(path: path), specs: specs, ticket: ticket)
    }

    /// As ``render(_:specs:ticket:)-(String,_,_)``, for a file beneath a library root.
    public func render(
        _ location: ImageLocation, specs: [RenditionSpec], ticket: PriorityTicket
    ) async throws -> [Thumbnail] {
        let core = core
        return try await pool.run(ticket: ticket) { [self] in
            self.decodes.add(1, ordering: .relaxed)
            return try core.render(location, specs: specs)
        }
    }

    /// Renders the part of the picture inside `crop` (fractions of the upright image, 0...1) into
    /// `spec`'s box.
    public func render(
        _ location: ImageLocation, spec: RenditionSpec, crop: NormalizedRect, priority: WorkPriority
    ) async throws -> Thumbnail {
        let core = core
        return try await pool.run(priority: priority) { [self] in
            self.decodes.add(1, ordering: .relaxed)
            return try core.render(location, spec: spec, crop: crop)
        }
    }

    /// The preview embedded in the file (JPEG EXIF thumbnail, HEIF thumbnail), upright, or nil:
    /// the fast degraded image of opportunistic delivery.
    public func embeddedPreview(
        _ location: ImageLocation, format: ThumbnailFormat, quality: Int, priority: WorkPriority
    ) async throws -> Thumbnail? {
        let core = core
        return try await pool.run(priority: priority) {
            try core.embeddedPreview(location, format: format, quality: quality)
        }
    }
}

/// The same, for a file named on its own (``ImageLocation/init(path:)``).
extension ThumbnailRenderer {
    public func render(
        _ path: String, spec: RenditionSpec, crop: NormalizedRect, priority: WorkPriority
    ) async throws -> Thumbnail {
        try await render(ImageLocation(path: path), spec: spec, crop: crop, priority: priority)
    }

    /// ``render(_:spec:crop:priority:)-(String,_,_,_)`` at interactive priority.
    public func render(_ path: String, spec: RenditionSpec, crop: NormalizedRect) async throws -> Thumbnail {
        try await render(path, spec: spec, crop: crop, priority: .interactive)
    }

    public func embeddedPreview(
        _ path: String, format: ThumbnailFormat, quality: Int, priority: WorkPriority
    ) async throws -> Thumbnail? {
        try await embeddedPreview(ImageLocation(path: path), format: format, quality: quality, priority: priority)
    }

    /// ``embeddedPreview(_:format:quality:priority:)-(String,_,_,_)`` as a JPEG of quality 82, at
    /// interactive priority.
    public func embeddedPreview(_ path: String) async throws -> Thumbnail? {
        try await embeddedPreview(path, format: .jpeg, quality: 82, priority: .interactive)
    }
}
