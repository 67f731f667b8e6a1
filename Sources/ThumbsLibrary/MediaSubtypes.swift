/// What kind of photo or video an asset is beyond its media type, as `PHAssetMediaSubtype`
/// (whose bit values these keep).
public struct MediaSubtypes: OptionSet, Sendable, Hashable {
    public let rawValue: UInt

    public init(rawValue: UInt) { self.rawValue = rawValue }

    /// A Live Photo (a still and a movie beside it with one content identifier) or a motion
    /// photo (a still with its movie inside the file): one asset, its still its picture.
    public static let photoLive = MediaSubtypes(rawValue: 1 << 3)

    /// The subtypes' names as the API and `--json` give them.
    public var names: [String] {
        Self.named.compactMap { contains($0.subtype) ? $0.name : nil }
    }

    private static let named: [(subtype: MediaSubtypes, name: String)] = [(.photoLive, "live")]
}
