import Foundation
import ThumbsStore
import ThumbsSupport

/// What one group of a catalog list holds (a folder, a day, a smart album…): its counts, as an
/// ``AssetCollection`` counts them, and for a folder its path.
struct CatalogGroup: Hashable {
    /// Listed assets by type: a burst once, as the frame that stands for it.
    var photos: Int64 = 0
    var videos: Int64 = 0
    /// The bytes of every asset's files, each burst frame's and Live Photo movie's included.
    var bytes: Int64 = 0
    /// The files of its assets: each frame, each still and its movie.
    var files: Int64 = 0
    /// A folder's root and path beneath it (as bytes); empty for other groups.
    var root = ""
    var folder: [UInt8] = []

    var isEmpty: Bool { photos == 0 && videos == 0 && bytes == 0 && files == 0 }

    /// Counts `asset` in (`sign` 1) or out (-1); its type only where it is listed.
    mutating func count(_ asset: Asset, listed: Bool, sign: Int64) {
        if listed {
            if asset.isVideo { videos += sign } else { photos += sign }
        }
        bytes += sign * Int64(clamping: asset.fileSize)
        files += sign * (asset.pairedMovie == nil ? 1 : 2)
    }

    private static let version: UInt8 = 1

    func encoded() -> [UInt8] {
        var writer = ByteWriter(capacity: 40 + root.utf8.count + folder.count)
        writer.u8(Self.version)
        writer.i64(photos)
        writer.i64(videos)
        writer.i64(bytes)
        writer.i64(files)
        writer.string(root)
        writer.lengthPrefixed(folder)
        return writer.bytes
    }

    /// A group read back; nil for a record of another version. Throws for a damaged one.
    init?(decoding record: UnsafeRawBufferPointer) throws(StoreError) {
        var reader = ByteReader(record, record: "catalog group")
        guard try reader.u8() == Self.version else { return nil }
        photos = try reader.i64()
        videos = try reader.i64()
        bytes = try reader.i64()
        files = try reader.i64()
        root = try reader.string()
        folder = Array(try reader.lengthPrefixed())
    }

    init(root: String = "", folder: [UInt8] = []) {
        self.root = root
        self.folder = folder
    }
}

/// When a walk of a root was last kept whole in the catalog, and in which time zone its days
/// were counted.
struct CatalogRootRecord: Hashable {
    var root: String
    var walked: Date
    var timeZone: String

    private static let version: UInt8 = 1

    func encoded() -> [UInt8] {
        var writer = ByteWriter(capacity: 16 + root.utf8.count + timeZone.utf8.count)
        writer.u8(Self.version)
        writer.f64(walked.timeIntervalSince1970)
        writer.string(timeZone)
        writer.string(root)
        return writer.bytes
    }

    init(root: String, walked: Date, timeZone: String) {
        self.root = root
        self.walked = walked
        self.timeZone = timeZone
    }

    init?(decoding record: UnsafeRawBufferPointer) throws(StoreError) {
        var reader = ByteReader(record, record: "catalog root")
        guard try reader.u8() == Self.version else { return nil }
        walked = Date(timeIntervalSince1970: try reader.f64())
        timeZone = try reader.string()
        root = try reader.string()
    }
}
