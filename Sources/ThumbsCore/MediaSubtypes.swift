/// What kind of photo or video an asset is beyond its media type, as `PHAssetMediaSubtype`
/// (whose bit values these keep).
public struct MediaSubtypes: OptionSet, Sendable, Hashable, Codable {
    public let rawValue: UInt32

    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// Twice as long as it is high or more, or marked a panorama (XMP `GPano`).
    public static let photoPanorama = MediaSubtypes(rawValue: 1 << 0)
    /// High dynamic range: a gain map beside an SDR picture, or a PQ or HLG picture.
    public static let photoHDR = MediaSubtypes(rawValue: 1 << 1)
    /// A capture of a phone's or computer's screen.
    public static let photoScreenshot = MediaSubtypes(rawValue: 1 << 2)
    /// A Live Photo (a still and a movie beside it with one content identifier) or a motion
    /// photo (a still with its movie inside the file): one asset, its still its picture.
    public static let photoLive = MediaSubtypes(rawValue: 1 << 3)
    /// A portrait: the file holds a depth map or a portrait matte beside its picture.
    public static let photoDepthEffect = MediaSubtypes(rawValue: 1 << 4)
    /// Slow motion: captured at 100 frames a second or more.
    public static let videoHighFrameRate = MediaSubtypes(rawValue: 1 << 17)
    /// A time-lapse: captured far slower than it plays.
    public static let videoTimelapse = MediaSubtypes(rawValue: 1 << 18)

    /// The subtypes' names as the API, `probe` and `--json` give them, in PhotoKit's order.
    public var names: [String] {
        Self.named.compactMap { contains($0.subtype) ? $0.name : nil }
    }

    /// Encoded as its ``names``: what `probe` prints.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(names)
    }

    /// Names it does not know (a later version's) are left out.
    public init(from decoder: any Decoder) throws {
        let names = Set(try decoder.singleValueContainer().decode([String].self))
        self = MediaSubtypes(Self.named.filter { names.contains($0.name) }.map(\.subtype))
    }

    private static let named: [(subtype: MediaSubtypes, name: String)] = [
        (.photoPanorama, "panorama"), (.photoHDR, "hdr"), (.photoScreenshot, "screenshot"), (.photoLive, "live"),
        (.photoDepthEffect, "depthEffect"), (.videoHighFrameRate, "highFrameRate"), (.videoTimelapse, "timelapse"),
    ]
}
