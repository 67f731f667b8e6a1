import ThumbsCore
import ThumbsRendering

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
    /// The ``ImageTask/id`` of the request it answers.
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
