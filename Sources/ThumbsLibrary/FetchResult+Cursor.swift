import SystemPackage
import ThumbsRendering
import ThumbsStore
import ThumbsSupport

/// How a fetch result is kept in the store's cursors table, so that a later rescan (another
/// process, another day) can describe what changed since.
extension FetchResult {
    /// Layout version, the record's first byte. A record of another version reads as no cursor:
    /// the next rescan then reports every asset as inserted, which loses nothing.
    static let cursorVersion: UInt8 = 3

    /// Version, the roots (each asset names its root by index), then per asset its root,
    /// relative path and metadata record (fingerprint, media type, header properties,
    /// placeholder; a record of the metadata cache's version 1 reads without a placeholder), and
    /// a Live Photo's movie: its path, metadata record and duration, and whether it stands for
    /// its burst (with the burst's frame count).
    package var cursorRecord: [UInt8] {
        var roots: [String: UInt32] = [:]
        for asset in self where roots[asset.root] == nil { roots[asset.root] = UInt32(roots.count) }
        var writer = ByteWriter(capacity: 16 + count * 96)
        writer.u8(Self.cursorVersion)
        writer.u32(UInt32(roots.count))
        for (root, _) in roots.sorted(by: { $0.value < $1.value }) { writer.string(root) }
        writer.u32(UInt32(count))
        for asset in self {
            writer.u32(roots[asset.root] ?? 0)
            // Bytes, as `string` writes UTF-8: a path that is not UTF-8 reads back as it was.
            writer.lengthPrefixed(asset.relativeFilePath.bytes.prefix(Int(UInt16.max)))
            var record = AssetMetadata(
                fingerprint: asset.fingerprint, mediaType: asset.mediaType, properties: asset.properties)
            record.placeholder = asset.placeholder
            let metadata = record.encoded()
            writer.u32(UInt32(metadata.count))
            writer.raw(metadata)
            writer.u8(asset.pairedMovie == nil ? 0 : 1)
            if let movie = asset.pairedMovie {
                writer.lengthPrefixed(movie.relativeFilePath.bytes.prefix(Int(UInt16.max)))
                let movieRecord = AssetMetadata(fingerprint: movie.fingerprint, mediaType: movie.mediaType).encoded()
                writer.u32(UInt32(movieRecord.count))
                writer.raw(movieRecord)
                writer.f64(movie.duration ?? -1)
            }
            writer.u8(asset.representsBurst ? 1 : 0)
            writer.u32(UInt32(clamping: asset.burstFrameCount))
        }
        return writer.bytes
    }

    /// Reads a ``cursorRecord``; nil for a record of another version.
    package init?(cursorRecord record: UnsafeRawBufferPointer) throws(StoreError) {
        var reader = ByteReader(record, record: "fetch result")
        guard try reader.u8() == Self.cursorVersion else { return nil }
        // A count read from the record reserves nothing by itself: a damaged one would ask for
        // gigabytes before the first short read failed. Roots are appended as they are read;
        // assets reserve no more than the record could hold.
        let rootCount = Int(try reader.u32())
        var roots: [String] = []
        for _ in 0..<rootCount { roots.append(try reader.string()) }
        let count = Int(try reader.u32())
        var assets: [Asset] = []
        assets.reserveCapacity(Swift.min(count, record.count / 16))
        for _ in 0..<count {
            let rootIndex = Int(try reader.u32())
            guard rootIndex < roots.count else {
                throw .store("root \(rootIndex) of \(roots.count)", "decode fetch result")
            }
            let relativePath = try Self.path(&reader)
            let metadata = try AssetMetadata(decoding: try reader.bytes(Int(try reader.u32())))
            var asset = Asset(
                root: roots[rootIndex], relativeFilePath: relativePath, mediaType: metadata.mediaType,
                fingerprint: metadata.fingerprint, properties: metadata.properties)
            asset.placeholder = metadata.placeholder
            if try reader.u8() == 1 {
                let moviePath = try Self.path(&reader)
                let movie = try AssetMetadata(decoding: try reader.bytes(Int(try reader.u32())))
                let duration = try reader.f64()
                asset.pairedMovie = PairedMovie(
                    relativeFilePath: moviePath, mediaType: movie.mediaType, fingerprint: movie.fingerprint,
                    duration: duration.isFinite && duration >= 0 ? duration : nil)
            }
            asset.representsBurst = try reader.u8() == 1
            asset.burstFrameCount = Int(try reader.u32())
            assets.append(asset)
        }
        self.init(ordered: assets)
    }

    private static func path(_ reader: inout ByteReader) throws(StoreError) -> FilePath {
        let bytes = try reader.lengthPrefixed()
        guard !bytes.contains(0) else { throw .store("a path holds a NUL byte", "decode fetch result") }
        return FilePath(bytes: bytes)
    }
}
