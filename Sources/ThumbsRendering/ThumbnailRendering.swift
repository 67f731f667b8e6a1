import ThumbsCore
import ThumbsSupport

/// What the library and the pipeline need from a renderer: inspected files, rendered renditions,
/// cropped renders, embedded previews and placeholders, each queued by priority. The layers
/// above decode nothing themselves: `ThumbnailRenderer` (ThumbsImaging) decodes in the calling
/// process, `IsolatedThumbnailRenderer` (ThumbsIsolation) in confined worker processes, and the
/// factory that opens a library picks one. An app can give `CachingImageManager` its own to test
/// its code without decoding a single image:
///
/// ```swift
/// struct SolidRenderer: ThumbnailRendering {
///     var workers: Int { 1 }
///     func render(_ location: ImageLocation, specs: [RenditionSpec], ticket: PriorityTicket) async throws -> [Thumbnail] {
///         specs.map { Thumbnail(bytes: [0xFF, 0xD8, 0xFF, 0xD9], pixelSize: $0.size, format: $0.format) }
///     }
///     func render(_ location: ImageLocation, spec: RenditionSpec, crop: NormalizedRect, priority: WorkPriority) async throws -> Thumbnail {
///         try await render(location, specs: [spec], ticket: PriorityTicket(priority))[0]
///     }
///     func embeddedPreview(_ location: ImageLocation, format: ThumbnailFormat, quality: Int, priority: WorkPriority) async throws -> Thumbnail? { nil }
///     func inspect(_ location: ImageLocation) async throws -> Inspection {
///         let fingerprint = location.expectedFingerprint ?? FileFingerprint(size: 1, modificationTimeNanoseconds: 0)
///         return Inspection(mediaType: .jpeg, fingerprint: fingerprint, properties: nil, problem: nil, changedWhileRead: false)
///     }
///     func placeholder(of thumbnail: Thumbnail) throws(ImagingError) -> ThumbHash {
///         ThumbHash(rgba: [128, 128, 128, 255], width: 1, height: 1)
///     }
/// }
/// ```
/// Failures are ``/ThumbsCore/ImagingError``s (a file that cannot be rendered) or `CancellationError` (the
/// caller's task was cancelled before the work started).
public protocol ThumbnailRendering: Sendable {
    /// How many renders run at once. Batch callers keep a few times this many queued, so that
    /// the renderer never waits for work.
    var workers: Int { get }

    /// Renders every spec from one decode of the file at `location`; results follow `specs`'
    /// order. The file is to be opened beneath the location's root only (``/ThumbsCore/ImageLocation``).
    /// Queued at `ticket`'s priority, which may be raised while the render waits.
    func render(_ location: ImageLocation, specs: [RenditionSpec], ticket: PriorityTicket) async throws -> [Thumbnail]

    /// Renders the part of the picture inside `crop` (fractions of the upright image) into `spec`'s
    /// box.
    func render(_ location: ImageLocation, spec: RenditionSpec, crop: NormalizedRect, priority: WorkPriority)
        async throws
        -> Thumbnail

    /// The preview embedded in the file, upright and encoded, or nil when there is none: the
    /// cheap degraded image of opportunistic delivery.
    func embeddedPreview(
        _ location: ImageLocation, format: ThumbnailFormat, quality: Int, priority: WorkPriority
    ) async throws -> Thumbnail?

    /// The media type of the file at `location` from its content and, for assets, what its header
    /// says, without decoding pixels: what the library's walk learns of a file. Throws only when
    /// the file cannot be read at all.
    func inspect(_ location: ImageLocation) async throws -> Inspection

    /// The placeholder of a thumbnail this renderer made (its bytes decoded, fitted into
    /// 100 × 100, hashed), on the caller's thread: a thumbnail of a few hundred pixels takes a
    /// millisecond or two, less than queueing it behind renders would. Throws
    /// ``/ThumbsCore/ImagingError/corrupt(_:)`` for bytes it cannot decode.
    func placeholder(of thumbnail: Thumbnail) throws(ImagingError) -> ThumbHash
}
