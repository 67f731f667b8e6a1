import Synchronization
import ThumbsCore
import ThumbsRendering
import ThumbsSupport

/// Probes files and renders thumbnails with libvips, off Swift's cooperative threads.
///
/// Every call runs on one of the renderer's render threads (`BlockingThreadPool`), so any number
/// of concurrent callers (a task group, many requests) suspend instead of blocking, and at most
/// ``/ThumbsRendering/ImagingConfiguration/workers`` decodes are in flight; waiting work starts by
/// ``/ThumbsSupport/WorkPriority``.
/// ```swift
/// let renderer = ThumbnailRenderer()
/// let spec = RenditionSpec(size: PixelSize(width: 256, height: 256), contentMode: .aspectFill)
/// let thumbnail = try await renderer.render("/photos/IMG_0001.JPG", spec: spec)
/// ```
/// Errors are ``/ThumbsCore/ImagingError`` (or `CancellationError` when the task was cancelled before its
/// render started).
public final class ThumbnailRenderer: ThumbnailRendering {
    public let configuration: ImagingConfiguration
    let core: VipsRenderer
    /// The render threads; other libvips work of the package (charts, contact sheets) runs here
    /// too, so that it never blocks a cooperative thread.
    package let pool: BlockingThreadPool
    /// Files read ahead of their renders while they wait.
    private let readAhead = ReadAhead()
    private let decodes = Atomic<Int>(0)
    private let decodesEnded = LockedValue(DecodeTime())
    /// Where each decode is noted while it runs; nil notes nothing.
    public let journal: (any DecodeJournal)?

    public convenience init(configuration: ImagingConfiguration = ImagingConfiguration()) {
        self.init(configuration: configuration, journal: nil)
    }

    /// A renderer whose every probe, render and embedded preview is noted in `journal` while a
    /// decoder has the file.
    public init(configuration: ImagingConfiguration, journal: (any DecodeJournal)?) {
        self.configuration = configuration
        self.journal = journal
        core = VipsRenderer(
            pixelLimit: configuration.pixelLimit, decodeMemoryBudget: configuration.decodeMemoryBudget,
            decodeTimeLimit: configuration.decodeTimeLimit)
        pool = BlockingThreadPool(name: "thumbs-render", threadCount: configuration.workers)
    }

    public var workers: Int { pool.threadCount }

    /// Full decodes started so far (renders; not probes or embedded previews): what coalescing
    /// and the cache save is counted here, by tests and benchmarks.
    package var decodeCount: Int { decodes.load(ordering: .relaxed) }

    /// How many full decodes ended (rendered or failed) and the seconds the render threads spent
    /// in them, together.
    package struct DecodeTime: Sendable, Hashable {
        package var count = 0
        package var seconds = 0.0

        /// Decodes a second the render threads keep up with, from the mean so far; nil before
        /// any ended.
        package func rate(workers: Int) -> Double? {
            count > 0 && seconds > 0 ? Double(workers) * Double(count) / seconds : nil
        }
    }

    /// The decodes that ended so far and their time: what a render costs on this machine and
    /// these files, from which a scrolling grid tells how fast a scroll the threads keep up with.
    package var decodeTime: DecodeTime { decodesEnded.withLock { $0 } }

    /// Runs `work`, which hands the file at `location` to a decoder, noted in the journal while
    /// it runs. On a render thread.
    func noted<T>(_ location: ImageLocation, _ work: () throws(ImagingError) -> T) throws(ImagingError) -> T {
        guard let journal else { return try work() }
        return try journal.noting(location, during: work)
    }

    /// Runs one full decode of the file at `location`, counted in ``decodeCount`` as it starts
    /// and in ``decodeTime`` as it ends, and noted in the journal. On a render thread.
    private func decoding<T>(
        _ location: ImageLocation, _ work: () throws(ImagingError) -> T
    ) throws(ImagingError) -> T {
        decodes.add(1, ordering: .relaxed)
        let started = ContinuousClock.now
        defer {
            let took = (ContinuousClock.now - started).seconds
            decodesEnded.withLock {
                $0.count += 1
                $0.seconds += took
            }
        }
        return try noted(location, work)
    }

    /// Reads a file's type, upright size, orientation, capture date, camera and embedded preview
    /// size from its header, without decoding pixels.
    public func probe(_ path: String, priority: WorkPriority = .interactive) async throws -> ImageProperties {
        try await probe(ImageLocation(path: path), priority: priority)
    }

    /// As ``probe(_:priority:)-(String,_)``, for a file beneath a library root.
    public func probe(_ location: ImageLocation, priority: WorkPriority = .interactive) async throws -> ImageProperties
    {
        let core = core
        return try await pool.run(priority: priority) { [self] in
            try noted(location) { () throws(ImagingError) in try core.probe(location) }
        }
    }

    /// A rendered thumbnail's placeholder (`ThumbHash(encoded:)`).
    public func placeholder(of thumbnail: Thumbnail) throws(ImagingError) -> ThumbHash {
        try ThumbHash(encoded: thumbnail)
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
        if pool.waitingCount > 0 { readAhead.advise(location, priority: ticket.priority) }
        return try await pool.run(ticket: ticket) { [self] in
            try decoding(location) { () throws(ImagingError) in try core.render(location, specs: specs) }
        }
    }

    /// Renders the part of the picture inside `crop` (fractions of the upright image, 0...1) into
    /// `spec`'s box.
    public func render(
        _ location: ImageLocation, spec: RenditionSpec, crop: NormalizedRect, priority: WorkPriority
    ) async throws -> Thumbnail {
        let core = core
        return try await pool.run(priority: priority) { [self] in
            try decoding(location) { () throws(ImagingError) in try core.render(location, spec: spec, crop: crop) }
        }
    }

    /// The preview embedded in the file (JPEG EXIF thumbnail, HEIF thumbnail), upright, or nil:
    /// the fast degraded image of opportunistic delivery.
    public func embeddedPreview(
        _ location: ImageLocation, format: ThumbnailFormat, quality: Int, priority: WorkPriority
    ) async throws -> Thumbnail? {
        let core = core
        return try await pool.run(priority: priority) { [self] in
            try noted(location) { () throws(ImagingError) in
                try core.embeddedPreview(location, format: format, quality: quality)
            }
        }
    }
}

/// The same, for a file named on its own (``/ThumbsCore/ImageLocation/init(path:)``).
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

    /// ``embeddedPreview(_:format:quality:priority:)-(String,_,_,_)`` as a JPEG of
    /// ``/ThumbsCore/RenditionSpec/defaultQuality``, at interactive priority.
    public func embeddedPreview(_ path: String) async throws -> Thumbnail? {
        try await embeddedPreview(path, format: .jpeg, quality: RenditionSpec.defaultQuality, priority: .interactive)
    }
}
