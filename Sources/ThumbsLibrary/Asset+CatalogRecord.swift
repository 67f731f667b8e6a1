import Foundation
import SystemPackage
import ThumbsCore
import ThumbsRendering
import ThumbsStore
import ThumbsSupport

extension Asset {
    /// The record's version: ``LibraryCatalog/layout`` names it, and a catalog of another
    /// layout is emptied before anything is kept in it.
    static let catalogRecordVersion: UInt8 = 3

    /// Whether the asset fits its catalog record: its root, path and its movie's path are
    /// fields of at most 65,535 bytes.
    var isCatalogued: Bool {
        root.utf8.count <= Int(UInt16.max) && relativeFilePath.bytes.count <= Int(UInt16.max)
            && (pairedMovie?.relativeFilePath.bytes.count ?? 0) <= Int(UInt16.max)
    }

    /// Version, the time zone its day and date were placed in, root, path, the metadata record
    /// (``/ThumbsStore/AssetMetadata``: fingerprint, type, properties; not the placeholder, which
    /// the metadata cache keeps and which a warm makes after it kept the asset here: a record
    /// holding it would be written again by the next walk, for every asset), then what
    /// the walk's groupings made of it: its Live Photo's movie, whether it stands for its burst
    /// and how many frames that has.
    func catalogRecord(timeZone: TimeZone) -> [UInt8] {
        let metadata = AssetMetadata(fingerprint: fingerprint, mediaType: mediaType, properties: properties)
        let encoded = metadata.encoded()
        var writer = ByteWriter(capacity: 64 + encoded.count + relativeFilePath.bytes.count)
        writer.u8(Self.catalogRecordVersion)
        writer.string(timeZone.identifier)
        writer.string(root)
        writer.lengthPrefixed(relativeFilePath.bytes)
        writer.u32(UInt32(encoded.count))
        writer.raw(encoded)
        if let movie = pairedMovie {
            writer.u8(1)
            writer.lengthPrefixed(movie.relativeFilePath.bytes)
            writer.string(movie.mediaType.rawValue)
            writer.u64(movie.fingerprint.size)
            writer.i64(movie.fingerprint.modificationTimeNanoseconds)
            writer.u8(movie.duration == nil ? 0 : 1)
            writer.f64(movie.duration ?? 0)
        } else {
            writer.u8(0)
        }
        writer.u8(representsBurst ? 1 : 0)
        writer.u32(UInt32(clamping: burstFrameCount))
        return writer.bytes
    }

    /// An asset read back from its catalog record; nil for a record of another version.
    /// Throws for a damaged one.
    init?(catalogRecord record: UnsafeRawBufferPointer) throws(StoreError) {
        var reader = ByteReader(record, record: "catalog asset")
        guard try reader.u8() == Self.catalogRecordVersion else { return nil }
        _ = try reader.string()
        let root = try reader.string()
        let path = FilePath(bytes: Array(try reader.lengthPrefixed()))
        let metadataCount = Int(try reader.u32())
        let metadata = try AssetMetadata(decoding: try reader.bytes(metadataCount))
        self.init(
            root: root, relativeFilePath: path, mediaType: metadata.mediaType, fingerprint: metadata.fingerprint,
            properties: metadata.properties)
        if try reader.u8() == 1 {
            let moviePath = FilePath(bytes: Array(try reader.lengthPrefixed()))
            let type = MediaType(rawValue: try reader.string()) ?? .unsupported
            let fingerprint = FileFingerprint(size: try reader.u64(), modificationTimeNanoseconds: try reader.i64())
            let hasDuration = try reader.u8() == 1
            let duration = try reader.f64()
            pairedMovie = PairedMovie(
                relativeFilePath: moviePath, mediaType: type, fingerprint: fingerprint,
                duration: hasDuration ? duration : nil)
        }
        representsBurst = try reader.u8() == 1
        burstFrameCount = Int(try reader.u32())
    }

    /// The time zone a catalog record was placed in (its days and the dates of captures without
    /// an offset are that zone's): where its entries are to be taken out. Nil for a record of
    /// another version or an unknown zone.
    static func catalogTimeZone(of record: UnsafeRawBufferPointer) -> TimeZone? {
        var reader = ByteReader(record, record: "catalog asset")
        guard (try? reader.u8()) == catalogRecordVersion, let identifier = try? reader.string() else { return nil }
        return TimeZone(identifier: identifier)
    }
}
