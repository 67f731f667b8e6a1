/// A photo's place in a burst, as its file says: the burst's identifier (Apple's MakerNote
/// `BurstUUID`; the name a Pixel gives a burst's frames), and whether the camera chose it to
/// stand for the burst. No format keeps the user's pick in the file (PhotoKit keeps it in its
/// library's database), so the cover, else the first frame, stands for a burst.
public struct BurstMembership: Sendable, Hashable, Codable {
    /// Shared by every frame of one burst.
    public var identifier: String
    /// The frame the camera made the burst's cover (a Pixel's `…_COVER` file).
    public var isCover: Bool

    public init(identifier: String, isCover: Bool = false) {
        self.identifier = identifier
        self.isCover = isCover
    }
}
