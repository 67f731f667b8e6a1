import ThumbsSupport

/// A size in whole pixels.
public struct PixelSize: Sendable, Hashable, Codable, CustomStringConvertible {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    public var pixelCount: Int { width * height }
    public var description: String { "\(width)x\(height)" }

    /// The same size turned a quarter: EXIF orientations 5...8 swap width and height.
    public var transposed: PixelSize { PixelSize(width: height, height: width) }

    /// Parses "256x256" (also "256X256").
    public init?(parsing text: String) {
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]),
            width > 0, height > 0
        else { return nil }
        self.init(width: width, height: height)
    }
}

extension PixelSize {
    /// Fails with ``ImagingError/tooManyPixels(width:height:limit:)`` when the size exceeds
    /// `pixelLimit`: checked from a header, before anything is decoded.
    func ensureWithin(pixelLimit: Int) throws(ImagingError) {
        guard pixelCount <= pixelLimit else { throw .tooManyPixels(width: width, height: height, limit: pixelLimit) }
    }
}
