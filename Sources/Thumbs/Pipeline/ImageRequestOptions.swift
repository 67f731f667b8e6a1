/// How many results a request delivers, as `PHImageRequestOptionsDeliveryMode`.
public enum DeliveryMode: String, Sendable, Hashable, CaseIterable, Codable {
    /// A degraded image first when a cheap one exists (memory, another cached rendition, the
    /// file's embedded preview), then the final one; only the final one when no cheap one exists.
    case opportunistic
    /// Only the final image.
    case highQualityFormat = "highQuality"
    /// One image, the cheapest acceptable: a cached final one, else a degraded one, else a render.
    case fastFormat = "fast"
}

/// Which cached renditions may serve a request, as `PHImageRequestOptionsResizeMode`.
public enum ResizeMode: String, Sendable, Hashable, CaseIterable {
    /// Only the exact rendition asked for.
    case none
    /// Any cached rendition of the same file at least as large as the target box.
    case fast
    /// Only the exact rendition asked for, rendered to exactly the requested box.
    case exact
}

/// Options of one request.
public struct ImageRequestOptions: Sendable, Hashable {
    public var deliveryMode: DeliveryMode
    public var resizeMode: ResizeMode
    /// Overrides the manager's default format.
    public var format: ThumbnailFormat?
    /// Overrides the manager's default quality (1...100).
    public var quality: Int?
    /// Only this part of the picture (fractions of the upright image). Cropped requests are
    /// rendered each time, not cached.
    public var normalizedCropRect: NormalizedRect?

    public init(deliveryMode: DeliveryMode = .opportunistic, resizeMode: ResizeMode = .fast,
                format: ThumbnailFormat? = nil, quality: Int? = nil, normalizedCropRect: NormalizedRect? = nil) {
        self.deliveryMode = deliveryMode
        self.resizeMode = resizeMode
        self.format = format
        self.quality = quality
        self.normalizedCropRect = normalizedCropRect
    }
}

/// One image delivered to a request.
public struct ImageResult: Sendable, Hashable {
    /// Where the image came from, cheapest first.
    public enum Source: String, Sendable, Hashable, CaseIterable {
        case memory, store, embedded, rendered
    }

    /// The encoded image (JPEG, WebP or PNG).
    public var bytes: [UInt8]
    public var pixelSize: PixelSize
    public var format: ThumbnailFormat
    /// A stand-in until the final image comes (as `PHImageResultIsDegradedKey`); never stored.
    public var isDegraded: Bool
    public var source: Source
    public var requestID: UInt64

    init(_ thumbnail: Thumbnail, isDegraded: Bool, source: Source, requestID: UInt64) {
        bytes = thumbnail.bytes
        pixelSize = thumbnail.pixelSize
        format = thumbnail.format
        self.isDegraded = isDegraded
        self.source = source
        self.requestID = requestID
    }
}

/// A request for an image: its results as an `AsyncSequence` (one or two, see
/// ``DeliveryMode``), an id, and a way to cancel it. Stopping the iteration early does not stop
/// the work while the request is still held: call ``cancel()``.
public struct ImageRequest: AsyncSequence, Sendable {
    public typealias Element = ImageResult
    public let id: UInt64
    let results: AsyncThrowingStream<ImageResult, any Error>
    let work: Task<Void, Never>

    /// Stops the request; its render stops too if no other request waits for it. The sequence
    /// ends (with `CancellationError` if no final image came).
    public func cancel() {
        work.cancel()
    }

    public func makeAsyncIterator() -> AsyncThrowingStream<ImageResult, any Error>.AsyncIterator {
        results.makeAsyncIterator()
    }
}
