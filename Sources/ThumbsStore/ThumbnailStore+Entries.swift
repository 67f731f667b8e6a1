import ThumbsCore

extension ThumbnailStore {
    /// A thumbnail to write, under its key (see ``ThumbnailStore/putThumbnails(_:)``).
    public struct ThumbnailEntry: Sendable, Hashable {
        public var key: ThumbnailKey
        public var thumbnail: Thumbnail

        public init(key: ThumbnailKey, thumbnail: Thumbnail) {
            self.key = key
            self.thumbnail = thumbnail
        }
    }

    /// An asset's metadata to write (see ``ThumbnailStore/putMetadata(_:)``).
    public struct MetadataEntry: Sendable, Hashable {
        public var assetID: String
        public var metadata: AssetMetadata

        public init(assetID: String, metadata: AssetMetadata) {
            self.assetID = assetID
            self.metadata = metadata
        }
    }

    /// A placeholder to keep for one version of an asset's file (see
    /// ``ThumbnailStore/setPlaceholders(_:)``).
    public struct PlaceholderEntry: Sendable, Hashable {
        public var assetID: String
        public var fingerprint: FileFingerprint
        public var placeholder: ThumbHash

        public init(assetID: String, fingerprint: FileFingerprint, placeholder: ThumbHash) {
            self.assetID = assetID
            self.fingerprint = fingerprint
            self.placeholder = placeholder
        }
    }

    /// A failure to remember for one version of an asset's file (see
    /// ``ThumbnailStore/recordFailures(_:)``).
    public struct FailureEntry: Sendable, Hashable {
        public var assetID: String
        public var fingerprint: FileFingerprint
        public var failure: FailureRecord

        public init(assetID: String, fingerprint: FileFingerprint, failure: FailureRecord) {
            self.assetID = assetID
            self.fingerprint = fingerprint
            self.failure = failure
        }
    }

    /// What the metadata cache knows of the size of some assets' files (see
    /// ``ThumbnailStore/totalFileSize(of:)``).
    public struct FileSizeTotal: Sendable, Hashable {
        /// Bytes of the files the cache knows.
        public var bytes: UInt64
        /// The assets it knows nothing of.
        public var unknownAssetIDs: [String]
    }
}
