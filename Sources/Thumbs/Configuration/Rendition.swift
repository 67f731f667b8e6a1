import ThumbsImaging
import ThumbsPipeline
import ThumbsStore

/// A named rung of the rendition ladder in `config.json`.
///
/// ```json
/// { "name": "grid", "size": "256x256", "mode": "fill", "format": "jpeg", "quality": 80 }
/// ```
public struct Rendition: Sendable, Hashable, Codable {
    public var name: String
    public var spec: RenditionSpec

    public init(name: String, spec: RenditionSpec) {
        self.name = name
        self.spec = spec
    }

    enum CodingKeys: String, KnownKeys {
        case name, size, mode, format, quality, upscale
    }

    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
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
        spec = RenditionSpec(
            size: size,
            contentMode: try container.decodeIfPresent(ContentMode.self, forKey: .mode) ?? .aspectFit,
            format: try container.decodeIfPresent(ThumbnailFormat.self, forKey: .format) ?? .jpeg,
            quality: try container.decodeIfPresent(Int.self, forKey: .quality) ?? 82,
            allowsUpscaling: try container.decodeIfPresent(Bool.self, forKey: .upscale) ?? false)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(spec.size.description, forKey: .size)
        try container.encode(spec.contentMode, forKey: .mode)
        try container.encode(spec.format, forKey: .format)
        try container.encode(spec.quality, forKey: .quality)
        try container.encode(spec.allowsUpscaling, forKey: .upscale)
    }
}
