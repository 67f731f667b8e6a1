import ThumbsCore
import ThumbsSupport

/// A folder a warm finished with nothing left to do: every asset of its files, as they were
/// (``digest``), had every rendition of the warm (``context``) in the cache, and none failed.
/// While the folder's files keep that digest and the cache has removed nothing since
/// (``generation``, see ``ThumbnailStore/removalGeneration()``), the next warm with the same
/// context counts the folder's assets fresh from this record alone: it reads no metadata record
/// and looks up no thumbnail of them.
public struct WarmedFolder: Sendable, Hashable {
    public var root: String
    /// The folder's path beneath ``root``, as bytes ("" for the root itself).
    public var folder: [UInt8]
    /// The ``FolderListing/Digest/recorded`` digest of every file the walk found in the folder.
    public var digest: UInt64
    /// What the warm was: its renditions, the shard it took, anything else that decides which
    /// thumbnails a folder's files need. A warm with another context warms the folder file by file.
    public var context: UInt64
    /// The cache's ``ThumbnailStore/removalGeneration()`` before the warm looked at the folder's
    /// first asset: any removal since (an eviction, a forgotten file) makes the record stale.
    public var generation: Int64
    /// How many assets the folder's files made: what the next warm counts fresh.
    public var assets: Int

    public init(root: String, folder: [UInt8], digest: UInt64, context: UInt64, generation: Int64, assets: Int) {
        self.root = root
        self.folder = folder
        self.digest = digest
        self.context = context
        self.generation = generation
        self.assets = assets
    }

    /// The context of a warm of `renditions` (in any order), mixed with `more` (what else
    /// decides the thumbnails a folder's files need): the layouts of the cache's keys and
    /// metadata records count too, so that a cache written by another version of Thumbs
    /// warms every folder file by file once.
    public static func context(renditions: [RenditionSpec], more: [UInt64] = []) -> UInt64 {
        var sum: UInt64 = 0
        for rendition in Set(renditions) {
            var hash = FNV1a()
            hash.add(rendition.storageKey)
            sum = sum &+ hash.value
        }
        var hash = FNV1a()
        hash.add(sum)
        hash.add(UInt64(RenditionSpec.storageKeyVersion))
        hash.add(UInt64(MetadataRecordVersion.current.rawValue))
        for value in more { hash.add(value) }
        return hash.value
    }

    /// Whether the record may still be kept: its folder's path fits a record's field.
    var isStorable: Bool { folder.count <= FolderListing.longestField && assets <= UInt32.max }

    /// The record's version: a record of another is read as none.
    private static let version: UInt8 = 1

    /// Version, digest, context, generation, asset count, root, folder.
    func encoded() -> [UInt8] {
        var writer = ByteWriter(capacity: 40 + root.utf8.count + folder.count)
        writer.u8(Self.version)
        writer.u64(digest)
        writer.u64(context)
        writer.i64(generation)
        writer.u32(UInt32(assets))
        writer.string(root)
        writer.lengthPrefixed(folder)
        return writer.bytes
    }

    /// A record read back; nil for one of another version. Throws for a damaged one.
    init?(decoding record: UnsafeRawBufferPointer) throws(StoreError) {
        var reader = ByteReader(record, record: "warmed folder")
        guard try reader.u8() == Self.version else { return nil }
        digest = try reader.u64()
        context = try reader.u64()
        generation = try reader.i64()
        assets = Int(try reader.u32())
        root = try reader.string()
        folder = Array(try reader.lengthPrefixed())
    }
}
