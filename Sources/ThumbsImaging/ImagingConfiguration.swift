import Foundation
import ThumbsSupport

/// Limits and resources for the imaging layer.
///
/// ```swift
/// let renderer = ThumbnailRenderer(configuration: .init(pixelLimit: 50_000_000))
/// ```
public struct ImagingConfiguration: Sendable, Hashable {
    /// Largest image accepted, in pixels, checked from the header before any decoding so a
    /// decompression bomb is refused cheaply. Default: 100 megapixels.
    public var pixelLimit: Int
    /// Threads that run decodes, and so the most decodes in flight at once.
    /// Default: the number of cores.
    public var workers: Int

    public init(
        pixelLimit: Int = 100_000_000,
        workers: Int = ProcessInfo.processInfo.activeProcessorCount
    ) {
        self.pixelLimit = pixelLimit
        self.workers = max(1, workers)
    }
}
