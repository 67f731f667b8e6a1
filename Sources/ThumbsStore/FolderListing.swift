import ThumbsCore
import ThumbsSupport

/// One folder of a library root as a walk saw it: the regular files directly in it, by name, at
/// their fingerprints. The cache keeps one per folder (``ThumbnailStore/putFolderListings(_:)``)
/// so that the next walk can say which files are gone since, without holding the library in
/// memory: it compares each folder it leaves with its listing.
public struct FolderListing: Sendable, Hashable {
    /// A file of the folder: its name's bytes and its fingerprint.
    public struct File: Sendable, Hashable {
        public var name: [UInt8]
        public var fingerprint: FileFingerprint

        public init(name: [UInt8], fingerprint: FileFingerprint) {
            self.name = name
            self.fingerprint = fingerprint
        }
    }

    public var root: String
    /// The folder's path beneath ``root``, as bytes ("" for the root itself).
    public var folder: [UInt8]
    public var files: [File]

    public init(root: String, folder: [UInt8], files: [File]) {
        self.root = root
        self.folder = folder
        self.files = files
    }

    /// What a folder's files amount to, whatever their order: the sum of a hash of each one's
    /// name, size and modification time, with their count. A listing's record starts with its
    /// digest, so that a walk tells an unchanged folder from a changed one by it alone, reading
    /// no name (``ThumbnailStore/folderListingDigest(root:folder:)``).
    public struct Digest: Sendable, Hashable {
        public private(set) var value: UInt64 = 0
        public private(set) var count = 0

        public init() {}

        /// Adds one file: `name`'s bytes up to the first NUL (a name holds none).
        public mutating func add(name: UnsafePointer<CChar>, fingerprint: FileFingerprint) {
            var hash = FNV1a()
            var byte = name
            while byte.pointee != 0 {
                hash.add(UInt8(bitPattern: byte.pointee))
                byte += 1
            }
            add(hash, fingerprint)
        }

        mutating func add(name: [UInt8], fingerprint: FileFingerprint) {
            var hash = FNV1a()
            hash.add(name)
            add(hash, fingerprint)
        }

        private mutating func add(_ name: FNV1a, _ fingerprint: FileFingerprint) {
            var hash = name
            hash.add(UInt8(0))
            hash.add(fingerprint.size)
            hash.add(UInt64(bitPattern: fingerprint.modificationTimeNanoseconds))
            value = value &+ hash.value
            count += 1
        }

        /// The digest as its record keeps it: the sum mixed with the count.
        public var recorded: UInt64 {
            var hash = FNV1a()
            hash.add(value)
            hash.add(UInt64(count))
            return hash.value
        }
    }

    /// The digest of ``files``.
    public var digest: Digest {
        var digest = Digest()
        for file in files { digest.add(name: file.name, fingerprint: file.fingerprint) }
        return digest
    }

    /// The longest folder path or name a listing holds, in bytes: a record's fields are at most
    /// 65,535 bytes long, and no file system's path comes near.
    public static let longestField = Int(UInt16.max)

    /// Whether the listing can be kept: its path and names fit its record.
    public var isStorable: Bool {
        folder.count <= Self.longestField && files.count <= UInt32.max
            && files.allSatisfy { $0.name.count <= Self.longestField }
    }

    /// The key of a folder's listing: the root's hash, then the folder's, so that a root's
    /// listings are one range of keys (the paths themselves could pass LMDB's 511-byte keys).
    static func key(root: String, folder: [UInt8]) -> [UInt8] {
        var writer = ByteWriter(capacity: 16)
        writer.raw(rootPrefix(root))
        writer.u64(folderHash(folder))
        return writer.bytes
    }

    static func rootPrefix(_ root: String) -> [UInt8] {
        var hash = FNV1a()
        hash.add(root.utf8)
        var writer = ByteWriter(capacity: 8)
        writer.u64(hash.value)
        return writer.bytes
    }

    /// The digest a record starts with; nil for a record of another version or too short.
    static func recordedDigest(_ record: UnsafeRawBufferPointer) -> UInt64? {
        var reader = ByteReader(record, record: "folder listing")
        guard (try? reader.u8()) == version else { return nil }
        return try? reader.u64()
    }

    /// The hash a folder's path has in its listing's key.
    public static func folderHash(_ folder: [UInt8]) -> UInt64 {
        var hash = FNV1a()
        hash.add(folder)
        return hash.value
    }

    /// The record's version: a record of another is read as no listing.
    private static let version: UInt8 = 1

    /// Version, digest (``Digest/recorded``), root, folder, then each file's name, size and
    /// modification time.
    func encoded() -> [UInt8] {
        var writer = ByteWriter(capacity: 32 + files.count * 40)
        writer.u8(Self.version)
        writer.u64(digest.recorded)
        writer.string(root)
        writer.lengthPrefixed(folder)
        writer.u32(UInt32(files.count))
        for file in files {
            writer.lengthPrefixed(file.name)
            writer.u64(file.fingerprint.size)
            writer.i64(file.fingerprint.modificationTimeNanoseconds)
        }
        return writer.bytes
    }

    /// A listing read back; nil for a record of another version. Throws for a damaged one.
    init?(decoding record: UnsafeRawBufferPointer) throws(StoreError) {
        var reader = ByteReader(record, record: "folder listing")
        guard try reader.u8() == Self.version else { return nil }
        _ = try reader.u64()
        root = try reader.string()
        folder = Array(try reader.lengthPrefixed())
        let count = Int(try reader.u32())
        // Each file takes at least 18 bytes: a count past what remains is damage, refused
        // before anything is reserved for it.
        guard count <= reader.remaining / 18 else {
            throw .store("a folder listing of \(count) files in \(record.count) bytes", "decode folder listing")
        }
        var files: [File] = []
        files.reserveCapacity(count)
        for _ in 0..<count {
            let name = Array(try reader.lengthPrefixed())
            let fingerprint = FileFingerprint(size: try reader.u64(), modificationTimeNanoseconds: try reader.i64())
            files.append(File(name: name, fingerprint: fingerprint))
        }
        self.files = files
    }
}
