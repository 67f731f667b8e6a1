import ThumbsImaging

/// What a worker's results must be before the renderer trusts them: as many thumbnails as specs
/// asked for, each in its spec's format and inside its box, each starting as its format does.
/// (The wire format already bounded every length and count.)
enum ReplyCheck {
    static func thumbnails(_ thumbnails: [Thumbnail], for specs: [RenditionSpec]) throws(ReplyError) -> [Thumbnail] {
        guard thumbnails.count == specs.count else {
            throw .unexpected("\(thumbnails.count) thumbnails for \(specs.count) renditions")
        }
        for (thumbnail, spec) in zip(thumbnails, specs) {
            guard thumbnail.format == spec.format, thumbnail.pixelSize.width >= 1, thumbnail.pixelSize.height >= 1,
                thumbnail.pixelSize.width <= spec.size.width, thumbnail.pixelSize.height <= spec.size.height
            else { throw .unexpected("a \(thumbnail.pixelSize) \(thumbnail.format) thumbnail for \(spec)") }
            try encoded(thumbnail)
        }
        return thumbnails
    }

    static func preview(_ thumbnail: Thumbnail, format: ThumbnailFormat, pixelLimit: Int) throws(ReplyError)
        -> Thumbnail
    {
        guard thumbnail.format == format, thumbnail.pixelSize.width >= 1, thumbnail.pixelSize.height >= 1,
            thumbnail.pixelSize.pixelCount <= pixelLimit
        else { throw .unexpected("a \(thumbnail.pixelSize) \(thumbnail.format) preview") }
        try encoded(thumbnail)
        return thumbnail
    }

    /// Fails unless the bytes begin as the thumbnail's format does.
    private static func encoded(_ thumbnail: Thumbnail) throws(ReplyError) {
        let bytes = thumbnail.bytes
        let signature: Bool =
            switch thumbnail.format {
            case .jpeg: bytes.starts(with: [0xFF, 0xD8, 0xFF])
            case .png: bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
            case .webp:
                bytes.count >= 12 && bytes.starts(with: Array("RIFF".utf8))
                    && Array(bytes[8..<12]) == Array("WEBP".utf8)
            }
        guard signature else { throw .unexpected("a \(thumbnail.format) thumbnail that is not one") }
    }
}
