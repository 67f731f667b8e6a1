import Foundation
import SystemPackage
import ThumbsCore
import ThumbsStore
import ThumbsSupport

/// The library as the cache keeps it, beside the thumbnails: every asset a warm found (as the
/// walk listed it: Live Photos paired, bursts grouped), in lists kept in order (the library
/// newest first, each folder, smart album, burst and day) with each group's counts. The warm
/// and the watch keep it (``keep(_:)``, ``forget(_:)``), so that a listing reads it instead of
/// walking the library: memory and time follow what is listed, not the library.
///
/// ```swift
/// let catalog = LibraryCatalog(store: store)
/// if try catalog.walkedWhole(roots: library.roots) != nil {
///     for album in try catalog.albums(roots: library.roots) { print(album.title) }
/// }
/// ```
public struct LibraryCatalog: Sendable {
    public let store: ThumbnailStore
    /// The time zone days are counted in: a catalog kept in another is not read
    /// (``walkedWhole(roots:)``).
    public let timeZone: TimeZone

    public init(store: ThumbnailStore, timeZone: TimeZone = .current) {
        self.store = store
        self.timeZone = timeZone
    }

    /// What a warm counts on when it passes over a folder whose assets it kept in the catalog
    /// before (``/ThumbsStore/WarmedFolder/context(renditions:more:)``): the layout of the
    /// records, and the time zone (this process's) their days were counted in.
    public static var context: [UInt64] {
        var zone = FNV1a()
        zone.add(TimeZone.current.identifier.utf8)
        return [UInt64(Asset.catalogRecordVersion), zone.value]
    }

    /// The ``/ThumbsStore/WarmedFolder`` context of a warm that only lists the library into the
    /// catalog (no rendition), as the server's walks do.
    public static var listingContext: UInt64 { WarmedFolder.context(renditions: [], more: context) }

    /// Keeps `assets` as they are now, each replacing what the catalog had of it, in one
    /// transaction, and says what that changed in the listing. An asset whose record is
    /// unchanged costs a read.
    @discardableResult
    public func keep(_ assets: [Asset]) async throws -> CatalogChanges {
        let assets = assets.filter(\.isCatalogued)
        guard !assets.isEmpty else { return CatalogChanges() }
        try await keepLayout()
        let timeZone = timeZone
        return try await store.writeCatalog { transaction throws(StoreError) in
            var changes = CatalogChanges()
            for asset in assets {
                guard let id = CatalogKeys.idValue(asset.id) else { continue }
                let key = CatalogKeys.idKey(id), record = asset.catalogRecord(timeZone: timeZone)
                let old = try transaction.withValue(.assets, key) { Array($0) }
                if old == record { continue }
                let before = try old.flatMap { old throws(StoreError) in try Self.takeOut(old, id: id, in: transaction)
                }
                try Self.place(asset, id: id, sign: 1, timeZone: timeZone, in: transaction)
                try transaction.put(.assets, key, record)
                changes.note(
                    asset.id, listedBefore: before.map { !$0.isHiddenBurstFrame } ?? false,
                    listedNow: !asset.isHiddenBurstFrame)
            }
            return changes
        }
    }

    /// Forgets the assets of `ids` (their files are gone), in one transaction, and says which
    /// of them the listing showed.
    @discardableResult
    public func forget(_ ids: [String]) async throws -> CatalogChanges {
        let values = ids.compactMap(CatalogKeys.idValue)
        guard !values.isEmpty else { return CatalogChanges() }
        try await keepLayout()
        return try await store.writeCatalog { transaction throws(StoreError) in
            var changes = CatalogChanges()
            for id in values {
                let key = CatalogKeys.idKey(id)
                guard let old = try transaction.withValue(.assets, key, { Array($0) }) else { continue }
                let before = try Self.takeOut(old, id: id, in: transaction)
                try transaction.delete(.assets, key)
                if before.map({ !$0.isHiddenBurstFrame }) ?? true { changes.removed.append(CatalogKeys.idText(id)) }
            }
            return changes
        }
    }

    /// Notes that walks of `roots` were kept whole, as of `date`: a listing of them may read the
    /// catalog from now on.
    public func markWalked(roots: [String], at date: Date = Date()) async throws {
        let records = roots.map {
            (
                CatalogKeys.group(.root, root: $0, 0),
                CatalogRootRecord(root: $0, walked: date, timeZone: timeZone.identifier)
            )
        }
        try await keepLayout()
        try await store.writeCatalog { transaction throws(StoreError) in
            for (key, record) in records { try transaction.put(.groups, key, record.encoded()) }
        }
    }

    /// The catalog's layout (its records, keys and groups); the catalog of a cache whose layout
    /// is another is emptied before anything is kept in it, and not read.
    static let layout = Asset.catalogRecordVersion
    /// The key of the layout's record: shorter than every group's.
    private static let layoutKey: [UInt8] = [0]

    private func layoutKept() throws(StoreError) -> UInt8? {
        try store.readCatalog { transaction throws(StoreError) in
            try transaction.withValue(.groups, Self.layoutKey) { $0.first }
        } ?? nil
    }

    /// Empties a catalog of another layout (or of none: written before its layout was kept),
    /// and notes this one's.
    private func keepLayout() async throws {
        guard try layoutKept() != Self.layout else { return }
        try await store.emptyCatalog()
        try await store.writeCatalog { transaction throws(StoreError) in
            try transaction.put(.groups, Self.layoutKey, [Self.layout])
        }
    }

    /// When the last of `roots` was last walked whole into the catalog, in this time zone; nil
    /// when one of them never was (or in another time zone): a listing then walks the library.
    public func walkedWhole(roots: [String]) throws(StoreError) -> Date? {
        guard !roots.isEmpty, try layoutKept() == Self.layout else { return nil }
        return try store.readCatalog { transaction throws(StoreError) -> Date? in
            var oldest = Date.distantFuture
            for root in roots {
                let record = try transaction.withValue(.groups, CatalogKeys.group(.root, root: root, 0)) {
                    (try? CatalogRootRecord(decoding: $0)) ?? nil
                }
                guard let record = record ?? nil, record.root == root, record.timeZone == timeZone.identifier
                else { return nil }
                oldest = min(oldest, record.walked)
            }
            return oldest
        }
    }

    /// Takes the asset of catalog record `record` out of every list, where the time zone it was
    /// placed in put it, and returns it. A record that cannot be read (damaged, of another
    /// version) is left to be replaced: its entries stay until the catalog is rebuilt.
    private static func takeOut(_ record: [UInt8], id: UInt64, in transaction: CatalogTransaction)
        throws(StoreError) -> Asset?
    {
        let read = record.withUnsafeBytes { bytes in
            ((try? Asset(catalogRecord: bytes)) ?? nil, Asset.catalogTimeZone(of: bytes))
        }
        guard let asset = read.0, let timeZone = read.1 else { return nil }
        try place(asset, id: id, sign: -1, timeZone: timeZone, in: transaction)
        return asset
    }

    /// Puts `asset` in (`sign` 1) or takes it out of (-1) every list it belongs to, with its
    /// groups' counts.
    private static func place(
        _ asset: Asset, id: UInt64, sign: Int64, timeZone: TimeZone, in transaction: CatalogTransaction
    ) throws(StoreError) {
        let entry = OrderEntry(asset).encoded()
        let folder = asset.relativeFilePath.removingLastComponent().bytes
        for place in CatalogKeys.memberships(of: asset, timeZone: timeZone) {
            if place.isListed {
                let key = CatalogKeys.orderKey(place.group, order: place.order, id: id)
                if sign > 0 { try transaction.put(.order, key, entry) } else { try transaction.delete(.order, key) }
            }
            let kept = try transaction.withValue(.groups, place.group) { (try? CatalogGroup(decoding: $0)) ?? nil }
            var group =
                (kept ?? nil)
                ?? (place.group.first == CatalogKeys.List.folder.rawValue
                    ? CatalogGroup(root: asset.root, folder: folder) : CatalogGroup())
            group.count(asset, listed: place.isListed, sign: sign)
            if group.isEmpty {
                try transaction.delete(.groups, place.group)
            } else {
                try transaction.put(.groups, place.group, group.encoded())
            }
        }
    }
}

/// What an order entry says of its asset without its record: enough to count a range and to
/// choose an album's key assets.
struct OrderEntry: Hashable {
    var isVideo: Bool
    /// Whether its header could be read (it can be drawn): key assets prefer those.
    var isReadable: Bool
    /// Not a burst frame hidden behind the frame that stands for its burst.
    var isListed: Bool
    var bytes: UInt64
    /// ``CatalogKeys/newestFirst(_:)`` of its date.
    var dateOrder: UInt64

    init(_ asset: Asset) {
        isVideo = asset.isVideo
        isReadable = asset.properties != nil
        isListed = !asset.isHiddenBurstFrame
        bytes = asset.fileSize
        dateOrder = CatalogKeys.newestFirst(asset.date)
    }

    func encoded() -> [UInt8] {
        var writer = ByteWriter(capacity: 17)
        writer.u8((isVideo ? 1 : 0) | (isReadable ? 2 : 0) | (isListed ? 4 : 0))
        writer.u64(bytes)
        writer.u64(dateOrder)
        return writer.bytes
    }

    init(decoding value: UnsafeRawBufferPointer) throws(StoreError) {
        var reader = ByteReader(value, record: "catalog entry")
        let flags = try reader.u8()
        (isVideo, isReadable, isListed) = (flags & 1 != 0, flags & 2 != 0, flags & 4 != 0)
        bytes = try reader.u64()
        dateOrder = try reader.u64()
    }
}
