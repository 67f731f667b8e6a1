/// Probes files and renders thumbnails with libvips, off Swift's cooperative threads.
///
/// Every call runs on one of the renderer's render threads (``BlockingThreadPool``), so any number
/// of concurrent callers (a task group, many requests) suspend instead of blocking, and at most
/// ``ImagingConfiguration/renderThreads`` decodes are in flight.
/// ```swift
/// let renderer = ThumbnailRenderer()
/// let spec = RenditionSpec(size: PixelSize(width: 256, height: 256), contentMode: .aspectFill)
/// let thumbnail = try await renderer.render("/photos/IMG_0001.JPG", spec: spec)
/// ```
/// Errors are ``ImagingError`` (or `CancellationError` when the task was cancelled before its
/// render started).
public final class ThumbnailRenderer: Sendable {
    public let configuration: ImagingConfiguration
    let core: VipsRenderer
    let pool: BlockingThreadPool

    public init(configuration: ImagingConfiguration = ImagingConfiguration()) {
        self.configuration = configuration
        core = VipsRenderer(pixelLimit: configuration.pixelLimit)
        pool = BlockingThreadPool(name: "thumbs-render", threadCount: configuration.renderThreads)
    }

    /// Reads a file's type, upright size, orientation, capture date, camera and embedded preview
    /// size from its header, without decoding pixels.
    public func probe(_ path: String) async throws -> ImageProperties {
        let core = core
        return try await pool.run { try core.probe(path) }
    }

    /// Renders one rendition with shrink-on-load.
    public func render(_ path: String, spec: RenditionSpec) async throws -> Thumbnail {
        let core = core
        return try await pool.run { try core.render(path, spec: spec) }
    }

    /// Renders several renditions of one file from one decode; results follow `specs`' order.
    public func render(_ path: String, specs: [RenditionSpec]) async throws -> [Thumbnail] {
        let core = core
        return try await pool.run { try core.render(path, specs: specs) }
    }

    /// The preview embedded in the file (JPEG EXIF thumbnail, HEIF thumbnail), upright, or nil:
    /// the fast degraded image of opportunistic delivery.
    public func embeddedPreview(
        _ path: String, format: ThumbnailFormat = .jpeg, quality: Int = 82
    ) async throws -> Thumbnail? {
        let core = core
        return try await pool.run { try core.embeddedPreview(path, format: format, quality: quality) }
    }
}
