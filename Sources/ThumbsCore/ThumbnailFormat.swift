/// The encoded format of a thumbnail.
public enum ThumbnailFormat: String, Sendable, Hashable, Codable, CaseIterable {
    case jpeg, webp, png

    public var fileExtension: String { rawValue == "jpeg" ? "jpg" : rawValue }
}
