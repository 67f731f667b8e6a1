import ThumbsCore

/// The versions of the metadata cache's record (``AssetMetadata``), oldest first, each named
/// after what it added: a record of any of them is read, and one that says too little of its
/// file (a later version reads more of such a file) is outdated, so that the file is inspected
/// again. A new version is one more case, with the files whose earlier records it outdates.
enum MetadataRecordVersion: UInt8, CaseIterable, Comparable {
    /// The fingerprint, the media type and the probe's properties.
    case probedProperties = 1
    /// The photo's placeholder (ThumbHash).
    case placeholders = 2
    /// Videos' properties: videos, camera RAW and AVI files probed, which were not before.
    case videos = 3
    /// Live Photos' content identifiers, motion photos' movies, media subtypes, bursts and the
    /// partial flag, read from every asset's file.
    case livePhotosSubtypesAndBursts = 4
    /// The file's content signature (``/ThumbsCore/ContentIdentity``), by which a moved or copied file is
    /// recognised. Outdates nothing: a file whose record lacks it is recognised only once it is
    /// read again.
    case contentSignatures = 5

    /// The version records are written in.
    static let current = allCases[allCases.count - 1]

    /// Whether a record of this version is outdated for a file of `type`: a later version reads
    /// what the record lacks of it.
    func isOutdated(for type: MediaType) -> Bool {
        Self.allCases.contains { $0 > self && $0.outdatesEarlierRecords(of: type) }
    }

    /// Whether records written before this version say too little of a file of `type`.
    private func outdatesEarlierRecords(of type: MediaType) -> Bool {
        switch self {
        case .probedProperties, .placeholders: false
        case .videos: !type.isImage
        case .livePhotosSubtypesAndBursts: type.isAsset
        case .contentSignatures: false
        }
    }

    static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}
