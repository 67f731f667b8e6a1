import ThumbsCore
import ThumbsSupport

/// What identifies a cached thumbnail, and so what makes it stale: the asset, the version of its
/// file (size and modification time), and the rendition.
///
/// A file that changes gets a new fingerprint, so its old thumbnail is never served as fresh.
/// ```swift
/// let key = ThumbnailKey(assetID: asset.id, fingerprint: asset.fingerprint, rendition: grid)
/// ```
public struct ThumbnailKey: Sendable, Hashable, CustomStringConvertible {
    public let assetID: String
    public let fingerprint: FileFingerprint
    public let rendition: RenditionSpec
    /// The key as stored, made once: a key is usually looked up more than once (display,
    /// preheat, coalesced requests), and building it is most of a lookup's cost.
    private let storageKey: Result<[UInt8], StoreError>

    public init(assetID: String, fingerprint: FileFingerprint, rendition: RenditionSpec) {
        self.assetID = assetID
        self.fingerprint = fingerprint
        self.rendition = rendition
        storageKey = Result { () throws(StoreError) in
            var writer = ByteWriter(capacity: 96)
            writer.raw(try Self.assetPrefix(assetID))
            writer.raw(Self.fingerprintBytes(fingerprint))
            writer.raw(rendition.storageKey)
            return writer.bytes
        }
    }

    public static func == (lhs: ThumbnailKey, rhs: ThumbnailKey) -> Bool {
        lhs.assetID == rhs.assetID && lhs.fingerprint == rhs.fingerprint && lhs.rendition == rhs.rendition
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(assetID)
        hasher.combine(fingerprint)
        hasher.combine(rendition)
    }

    public var description: String { "\(assetID)@\(fingerprint)/\(rendition)" }

    /// Longest asset id accepted, in UTF-8 bytes (LMDB keys are at most 511 bytes).
    public static let maximumAssetIDLength = 255

    /// `assetID` NUL `size` `mtime` `rendition` (see ``RenditionSpec/storageKey``): all of an
    /// asset's entries share a prefix, so they can be found (and stale versions removed) with one
    /// range scan. Fails for an asset id LMDB cannot hold.
    func encoded() throws(StoreError) -> [UInt8] {
        try storageKey.get()
    }

    /// The bytes every key of `assetID` starts with.
    static func assetPrefix(_ assetID: String) throws(StoreError) -> [UInt8] {
        let utf8 = Array(assetID.utf8)
        guard !utf8.isEmpty, utf8.count <= maximumAssetIDLength, !utf8.contains(0) else {
            throw .store(
                "asset id must be 1...\(maximumAssetIDLength) UTF-8 bytes without NUL: \"\(assetID)\"",
                "encode key")
        }
        return utf8 + [0]
    }

    static func fingerprintBytes(_ fingerprint: FileFingerprint) -> [UInt8] {
        var writer = ByteWriter(capacity: 16)
        writer.u64(fingerprint.size)
        writer.i64(fingerprint.modificationTimeNanoseconds)
        return writer.bytes
    }
}
