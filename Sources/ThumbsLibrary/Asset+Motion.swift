import ThumbsCore

extension Asset {
    /// Where a Live Photo's or a motion photo's movie is.
    public enum Motion: Sendable, Hashable {
        /// A file of its own beside the still.
        case paired(PairedMovie)
        /// A byte range of the still's own file.
        case embedded(EmbeddedMovie)

        /// Seconds, when the movie says.
        public var duration: Double? {
            switch self {
            case .paired(let movie): movie.duration
            case .embedded(let movie): movie.duration
            }
        }
    }

    /// The movie that plays when the photo is pressed or hovered, for a Live Photo or a motion
    /// photo; nil for any other asset.
    public var motion: Motion? {
        if let pairedMovie { return .paired(pairedMovie) }
        return properties?.embeddedMovie.map(Motion.embedded)
    }

    /// What kind of photo or video it is beyond its media type: what its file says, with a
    /// Live Photo's pair or motion photo's movie, and the shape of a panorama.
    public var mediaSubtypes: MediaSubtypes {
        properties.map { Self.mediaSubtypes(of: $0, hasPairedMovie: pairedMovie != nil) } ?? []
    }

    /// The subtypes of an asset whose file has `properties`, with or without a Live Photo's
    /// movie beside it.
    public static func mediaSubtypes(of properties: ImageProperties, hasPairedMovie: Bool) -> MediaSubtypes {
        var subtypes = properties.mediaSubtypes
        if hasPairedMovie || properties.embeddedMovie != nil { subtypes.insert(.photoLive) }
        let size = properties.pixelSize
        if properties.video == nil, max(size.width, size.height) >= 2 * min(size.width, size.height) {
            subtypes.insert(.photoPanorama)
        }
        return subtypes
    }

    /// The asset's files as the metadata cache keys them, with the sizes they were enumerated
    /// with: the still, and a Live Photo's movie.
    package var storedFiles: [(id: String, size: UInt64)] {
        var files = [(id, fingerprint.size)]
        if let pairedMovie {
            files.append(
                (AssetID.make(root: root, relativeFilePath: pairedMovie.relativeFilePath), pairedMovie.fingerprint.size)
            )
        }
        return files
    }

    /// Whether `other` is this asset unchanged: the same files at the same fingerprints (a
    /// Live Photo's movie included), standing for its burst or not as before.
    func isUnchanged(from other: Asset) -> Bool {
        fingerprint == other.fingerprint && pairedMovie == other.pairedMovie
            && representsBurst == other.representsBurst && burstFrameCount == other.burstFrameCount
    }
}
