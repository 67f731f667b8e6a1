/// How many results a request delivers, as `PHImageRequestOptionsDeliveryMode`. The raw values
/// are the names used everywhere else too: `config.json`'s `deliveryMode` and `--delivery`.
public enum DeliveryMode: String, Sendable, Hashable, CaseIterable, Codable {
    /// A degraded image first when a cheap one exists (memory, another cached rendition, the
    /// file's embedded preview), then the final one; only the final one when no cheap one exists.
    case opportunistic
    /// Only the final image.
    case highQualityFormat
    /// One image, the cheapest acceptable: a cached final one, else a degraded one, else a render.
    case fastFormat

    /// The mode `name` names: PhotoKit's name (the raw value), or the short one a thumbnail URL's
    /// `delivery` parameter uses (`final`, `opportunistic`, `fast`); nil for any other name.
    public init?(name: some StringProtocol) {
        switch name {
        case "final": self = .highQualityFormat
        case "fast": self = .fastFormat
        default: self.init(rawValue: String(name))
        }
    }
}
