import ThumbsSupport

/// A size in whole pixels.
public struct PixelSize: Sendable, Hashable, Codable, CustomStringConvertible {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// Width × height; `Int.max` when that overflows: a size read from a header can be anything,
    /// and a count too large for `Int` is over every limit.
    public var pixelCount: Int {
        let (count, overflow) = width.multipliedReportingOverflow(by: height)
        return overflow ? .max : count
    }
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
    /// The most pixels a picture may have: libvips addresses no image larger, so no pixel limit
    /// goes past it, and a stored size past it is damage.
    package static let largestPixelCount = 10_000_000_000

    /// A picture's size as a decoder or a header reported it, checked before any arithmetic
    /// uses it: a side of 0 or less (a stream whose size was never read, a damaged header) is a
    /// corrupt file, and a pixel count over `pixelLimit` (or past what an `Int` holds) is
    /// ``ImagingError/tooManyPixels(width:height:limit:)``. A value from a file never reaches a
    /// trapping conversion or an overflowing product.
    package static func decoded(
        width: some BinaryInteger, height: some BinaryInteger, pixelLimit: Int
    ) throws(ImagingError) -> PixelSize {
        guard width > 0, height > 0 else { throw .corrupt("the picture is \(width)x\(height) pixels") }
        guard let wide = Int(exactly: width), let high = Int(exactly: height),
            case let (count, overflow) = wide.multipliedReportingOverflow(by: high), !overflow, count <= pixelLimit
        else {
            throw .tooManyPixels(
                width: Int(clamping: width), height: Int(clamping: height), limit: pixelLimit)
        }
        return PixelSize(width: wide, height: high)
    }

    /// Fails with ``ImagingError/tooManyPixels(width:height:limit:)`` when the size exceeds
    /// `pixelLimit`: checked from a header, before anything is decoded.
    package func ensureWithin(pixelLimit: Int) throws(ImagingError) {
        guard pixelCount <= pixelLimit else { throw .tooManyPixels(width: width, height: height, limit: pixelLimit) }
    }
}
