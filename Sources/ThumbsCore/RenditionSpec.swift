import ThumbsSupport

/// One rendition to produce: a target box, how to fill it, and how to encode it.
///
/// ```swift
/// let grid = RenditionSpec(size: PixelSize(width: 256, height: 256), contentMode: .aspectFill)
/// ```
public struct RenditionSpec: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The target box.
    public var size: PixelSize
    public var contentMode: ContentMode
    public var format: ThumbnailFormat
    /// Encoder quality, 1...100 (for PNG, ignored: PNG is lossless). Default:
    /// ``defaultQuality``.
    public var quality: Int
    /// Whether an image smaller than the box is enlarged. Off by default: a thumbnail never
    /// invents pixels the original does not have.
    public var allowsUpscaling: Bool
    /// How an HDR source is shown: tone-mapped (``HDRRendering/sdr``, the default) or with a
    /// gain map (a JPEG rendition only).
    public var hdr: HDRRendering

    /// Largest box side accepted; larger ones are clamped to it. A thumbnail is far smaller, and
    /// the bound keeps every size well inside libvips' coordinate range.
    public static let maximumDimension = 16_384
    /// The encoder quality of a rendition, a request or a preview that names none.
    public static let defaultQuality = 82

    public init(
        size: PixelSize, contentMode: ContentMode = .aspectFit,
        format: ThumbnailFormat = .jpeg, quality: Int = defaultQuality, allowsUpscaling: Bool = false,
        hdr: HDRRendering = .sdr
    ) {
        self.size = PixelSize(
            width: min(max(1, size.width), Self.maximumDimension),
            height: min(max(1, size.height), Self.maximumDimension))
        self.contentMode = contentMode
        self.format = format
        self.quality = min(100, max(1, quality))
        self.allowsUpscaling = allowsUpscaling
        self.hdr = hdr
    }

    /// Whether an HDR source's rendition carries a gain map: asked for, and a JPEG.
    public var carriesGainMap: Bool { hdr == .gainMap && format == .jpeg }

    /// "256x256-fill-q82.jpeg" ("…-q82-gainmap.jpeg" with a gain map), stable: it is part of
    /// cache keys.
    public var description: String {
        let hdr = hdr == .sdr ? "" : "-\(hdr.rawValue)"
        return "\(size)-\(contentMode.rawValue)-q\(quality)\(allowsUpscaling ? "-up" : "")\(hdr).\(format.rawValue)"
    }
}
