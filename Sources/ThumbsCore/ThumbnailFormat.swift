/// The encoded format of a thumbnail.
public enum ThumbnailFormat: String, Sendable, Hashable, Codable, CaseIterable {
    case jpeg, webp, png

    public var fileExtension: String { rawValue == "jpeg" ? "jpg" : rawValue }

    /// What a thumbnail of this format is, as a file.
    public var mediaType: MediaType {
        switch self {
        case .jpeg: .jpeg
        case .webp: .webp
        case .png: .png
        }
    }

    /// The MIME type of a thumbnail of this format: its `Content-Type`.
    public var mimeType: String {
        mediaType.mimeType!  // every image type has one
    }
}
