import Foundation
import ThumbsCore
import ThumbsSupport

/// Limits and resources for the imaging layer.
///
/// ```swift
/// let renderer = ThumbnailRenderer(configuration: .init(pixelLimit: 50_000_000))
/// ```
public struct ImagingConfiguration: Sendable, Hashable {
    /// Largest image accepted, in pixels, checked from the header before any decoding so a
    /// decompression bomb is refused cheaply. Default: ``defaultPixelLimit``.
    public var pixelLimit: Int
    /// Threads that run decodes, and so the most decodes in flight at once, 1 to
    /// ``maximumWorkers``: ``requestedWorkers``, or one per core when that is nil. Setting it
    /// sets ``requestedWorkers``, brought within 1...``maximumWorkers``.
    public var workers: Int {
        get { min(max(1, requestedWorkers ?? ProcessInfo.processInfo.activeProcessorCount), Self.maximumWorkers) }
        set { requestedWorkers = min(max(1, newValue), Self.maximumWorkers) }
    }
    /// The number of render threads asked for, which ``workers`` brings within
    /// 1...``maximumWorkers``; nil asks for one per core (a configuration written once runs on
    /// machines of any size). Default: nil.
    public var requestedWorkers: Int?
    /// Bytes the decodes in flight may take together, as estimated from each file's header
    /// before decoding (a progressive JPEG holds all its coefficients, libheif the whole
    /// image): a decode waits until its share is free, and a file that needs more than the
    /// whole budget on its own fails with ``/ThumbsCore/ImagingError/tooMuchMemory(needed:budget:)``.
    /// Default: ``defaultDecodeMemoryBudget``.
    public var decodeMemoryBudget: ByteCount = Self.defaultDecodeMemoryBudget
    /// How long decoding one video's poster frame or one camera RAW file may take before it is
    /// stopped and the file fails with ``/ThumbsCore/ImagingError/timedOut(_:)``: a decoder stuck on a
    /// damaged file costs that file, not the run. Default: ``defaultDecodeTimeLimit``.
    public var decodeTimeLimit: Duration = Self.defaultDecodeTimeLimit

    /// The most render threads: beyond it threads only add memory and contention, and a typo
    /// (100000) would start tens of thousands of them.
    public static let maximumWorkers = 256
    /// The largest pixel limit: libvips addresses no image larger.
    public static let maximumPixelLimit = PixelSize.largestPixelCount
    /// 100 megapixels: larger than any camera's photo, far smaller than a decompression bomb.
    public static let defaultPixelLimit = 100_000_000
    /// 1 GiB.
    public static let defaultDecodeMemoryBudget = ByteCount(1 << 30)
    /// 30 seconds.
    public static let defaultDecodeTimeLimit = Duration.seconds(30)
    /// The smallest decode memory budget: below it ordinary photos would be refused.
    public static let minimumDecodeMemoryBudget = ByteCount(64 << 20)

    /// `workers` is brought within 1...``maximumWorkers`` (nil: one per core), `pixelLimit`
    /// within 1...``maximumPixelLimit``.
    public init(pixelLimit: Int = defaultPixelLimit, workers: Int? = nil) {
        self.pixelLimit = min(max(1, pixelLimit), Self.maximumPixelLimit)
        if let workers { self.workers = workers }
    }
}
