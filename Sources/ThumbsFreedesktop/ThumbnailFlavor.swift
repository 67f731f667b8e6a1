import ThumbsCore
import ThumbsRendering

/// A size of the desktop's thumbnail cache, and its folder: the spec's `normal` (128 pixels on
/// the longest side), `large` (256), `x-large` (512) and `xx-large` (1024).
public enum ThumbnailFlavor: String, Sendable, Hashable, CaseIterable, Codable {
    case normal
    case large
    case xLarge = "x-large"
    case xxLarge = "xx-large"

    /// The longest side of its thumbnails, in pixels; a smaller image is kept at its own size.
    public var size: Int {
        switch self {
        case .normal: 128
        case .large: 256
        case .xLarge: 512
        case .xxLarge: 1024
        }
    }

    /// The folder of its thumbnails, under the cache's root.
    public var folderName: String { rawValue }

    /// The rendition that makes its thumbnails: the image fitted in a square of ``size``, never
    /// enlarged, as PNG (the only format the spec allows).
    public var rendition: RenditionSpec {
        RenditionSpec(size: PixelSize(width: size, height: size), contentMode: .aspectFit, format: .png)
    }

    /// What a file manager asks for unless told otherwise.
    public static let defaults: [ThumbnailFlavor] = [.normal, .large]
}
