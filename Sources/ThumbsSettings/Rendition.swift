import ThumbsCore
import ThumbsPipeline
import ThumbsRendering
import ThumbsStore

/// A named rung of the rendition ladder in `config.json`.
///
/// ```json
/// { "name": "grid", "size": "256x256", "mode": "fill", "format": "jpeg", "quality": 80, "hdr": "gainmap" }
/// ```
public struct Rendition: Sendable, Hashable, Codable {
    public var name: String
    public var spec: RenditionSpec

    /// The longest name accepted.
    public static let maximumNameLength = 64

    /// Whether `name` can name a rendition: 1 to ``maximumNameLength`` characters of `a-z`, `0-9`,
    /// `_` and `-`. Names become parts of file names (`thumbs render -o DIR`), so nothing else
    /// is allowed: no separator, no dot, nothing a terminal or a shell reads specially.
    public static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= maximumNameLength
            && name.utf8.allSatisfy {
                (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x5F || $0 == 0x2D
            }
    }

    public init(name: String, spec: RenditionSpec) {
        self.name = name
        self.spec = spec
    }

    enum CodingKeys: String, KnownKeys {
        case name, size, mode, format, quality, upscale, hdr
    }

    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        guard Self.isValidName(name) else {
            throw DecodingError.dataCorruptedError(
                forKey: .name, in: container,
                debugDescription:
                    "expected 1 to \(Self.maximumNameLength) characters of a-z, 0-9, _ and -, found \"\(name)\"")
        }
        let sizeText = try container.decode(String.self, forKey: .size)
        guard let size = PixelSize(parsing: sizeText),
            max(size.width, size.height) <= RenditionSpec.maximumDimension
        else {
            throw DecodingError.dataCorruptedError(
                forKey: .size, in: container,
                debugDescription:
                    "expected WIDTHxHEIGHT such as \"256x256\", each at most \(RenditionSpec.maximumDimension), found \"\(sizeText)\""
            )
        }
        // What the rendition leaves out is the spec's default.
        var spec = RenditionSpec(size: size)
        spec.contentMode = try container.decodeIfPresent(ContentMode.self, forKey: .mode) ?? spec.contentMode
        spec.format = try container.decodeIfPresent(ThumbnailFormat.self, forKey: .format) ?? spec.format
        spec.quality = try container.decodeInteger(.quality, in: 1...100) ?? spec.quality
        spec.allowsUpscaling = try container.decodeIfPresent(Bool.self, forKey: .upscale) ?? spec.allowsUpscaling
        spec.hdr = try container.decodeIfPresent(HDRRendering.self, forKey: .hdr) ?? spec.hdr
        // A gain map rides in a JPEG's own containers: a WebP or PNG has none to carry it.
        guard spec.hdr == .sdr || spec.format == .jpeg else {
            throw DecodingError.dataCorruptedError(
                forKey: .hdr, in: container,
                debugDescription:
                    "\"hdr\": \"\(spec.hdr.rawValue)\" needs \"format\": \"jpeg\", found \"\(spec.format.rawValue)\"")
        }
        self.spec = spec
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(spec.size.description, forKey: .size)
        try container.encode(spec.contentMode, forKey: .mode)
        try container.encode(spec.format, forKey: .format)
        try container.encode(spec.quality, forKey: .quality)
        try container.encode(spec.allowsUpscaling, forKey: .upscale)
        try container.encode(spec.hdr, forKey: .hdr)
    }
}
