/// How a thumbnail fills its target box, as `PHImageContentMode`.
public enum ContentMode: String, Sendable, Hashable, Codable, CaseIterable {
    /// The whole image, inside the box.
    case aspectFit = "fit"
    /// The box covered, then centre-cropped to exactly the box.
    case aspectFill = "fill"
}
