import ThumbsCore
extension Asset {
    /// The burst this photo is a frame of, shared by its every frame; nil for most assets.
    public var burstIdentifier: String? { properties?.burst?.identifier }

    /// Whether a fetch that does not ask for every burst frame leaves this one out: a frame
    /// of a burst that another frame stands for (see ``representsBurst``).
    public var isHiddenBurstFrame: Bool { burstIdentifier != nil && !representsBurst }
}
