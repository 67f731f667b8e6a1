import Foundation
import SystemPackage
import ThumbsCore
import ThumbsStore
import ThumbsSupport

extension LibraryCatalog {
    /// A list of the catalog, read a page at a time (``page(of:roots:after:limit:now:)``).
    public enum List: Sendable, Hashable {
        /// The library as a listing shows it, newest first: a burst as the frame that stands for
        /// it.
        case library
        /// Every asset, each burst's every frame, newest first.
        case everything
        /// An album's assets, newest first (Recently Added's by when they were added), a burst as
        /// the frame that stands for it.
        case album(AssetCollection)
        /// The frames of the burst `asset` is a frame of, in its folder, newest first.
        case burst(of: Asset)
        /// A day's assets, newest first.
        case day(ThumbsLibrary.Day)
    }

    /// A place in a list: where a page ends, for the next one to start right after it whatever
    /// was added or removed in between (no offset to drift). Opaque as text: 32 hex digits.
    public struct Position: Sendable, Hashable {
        /// The list's order of the asset (``CatalogKeys/newestFirst(_:)`` of its date, or of its
        /// modification date in Recently Added).
        var order: UInt64
        var id: UInt64

        public var text: String { order.hexDigits + id.hexDigits }

        public init?(_ text: String) {
            guard text.utf8.count == 32, text.utf8.allSatisfy(\.isLowercaseHexDigit),
                let order = UInt64(text.prefix(16), radix: 16), let id = UInt64(text.suffix(16), radix: 16)
            else { return nil }
            (self.order, self.id) = (order, id)
        }

        init(order: UInt64, id: UInt64) {
            (self.order, self.id) = (order, id)
        }

        /// The key of the first entry of `group` after this position.
        func start(in group: [UInt8]) -> [UInt8] {
            id == .max
                ? CatalogKeys.orderKey(group, order: order &+ 1, id: 0)
                : CatalogKeys.orderKey(group, order: order, id: id + 1)
        }
    }

    /// A page of a list: its assets, and where the next page starts (nil after the last).
    public struct Page: Sendable {
        public var assets: [Asset]
        public var next: Position?
    }

    /// Up to `limit` assets of `list` in `roots` after `position` (from the start when nil):
    /// each root's list read from that position, merged. `now` says what Recently Added holds.
    public func page(
        of list: List, roots: [String], after position: Position? = nil, limit: Int, now: Date = Date()
    ) throws(StoreError) -> Page {
        try store.readCatalog { transaction throws(StoreError) in
            let (positions, next) = try positions(
                of: list, roots: roots, after: position, limit: limit, now: now, in: transaction)
            var assets: [Asset] = []
            assets.reserveCapacity(positions.count)
            for entry in positions {
                let asset = try transaction.withValue(.assets, CatalogKeys.idKey(entry.id)) {
                    (try? Asset(catalogRecord: $0)) ?? nil
                }
                // A record that cannot be read is not listed; its entry stays until it is kept again.
                if let asset = asset ?? nil { assets.append(asset) }
            }
            return Page(assets: assets, next: next)
        }
    }

    /// The ids of the first `limit` assets of each of `lists` in `roots`, in one read and
    /// without reading their records (a page of moments, each with its first assets).
    public func ids(of lists: [List], roots: [String], limit: Int, now: Date = Date()) throws(StoreError)
        -> [[String]]
    {
        try store.readCatalog { transaction throws(StoreError) in
            var ids: [[String]] = []
            ids.reserveCapacity(lists.count)
            for list in lists {
                ids.append(
                    try positions(of: list, roots: roots, after: nil, limit: limit, now: now, in: transaction)
                        .positions.map { CatalogKeys.idText($0.id) })
            }
            return ids
        }
    }

    /// The positions of up to `limit` assets of `list` after `position`, and where the next page
    /// starts.
    private func positions(
        of list: List, roots: [String], after position: Position?, limit: Int, now: Date,
        in transaction: CatalogTransaction
    ) throws(StoreError) -> (positions: ArraySlice<Position>, next: Position?) {
        let limit = max(1, limit)
        let since = list.isRecentlyAdded ? CatalogKeys.newestFirst(now - SmartAlbum.recentInterval) : UInt64.max
        var found: [Position] = []
        for group in groups(of: list, roots: roots) {
            let start = position.map { $0.start(in: group) } ?? group
            var taken = 0
            try transaction.forEach(.order, from: start) { key, value throws(StoreError) in
                guard key.count == 33, key.starts(with: group) else { return false }
                var reader = ByteReader(UnsafeRawBufferPointer(rebasing: key[17...]), record: "catalog key")
                let entry = Position(order: try reader.u64(), id: try reader.u64())
                guard entry.order <= since else { return false }
                // Recently Added lists every asset by when it was added, hidden frames too.
                if list.isRecentlyAdded, !(try OrderEntry(decoding: value).isListed) { return true }
                found.append(entry)
                taken += 1
                return taken <= limit
            }
        }
        found.sort { ($0.order, $0.id) < ($1.order, $1.id) }
        return (found.prefix(limit), found.count > limit ? found[limit - 1] : nil)
    }

    /// How many assets `list` holds in `roots`: its groups' counts, or for Recently Added (as of
    /// `now`) its entries counted.
    public func count(of list: List, roots: [String], now: Date = Date()) throws(StoreError) -> Int {
        try store.readCatalog { transaction throws(StoreError) in
            if list.isRecentlyAdded {
                // Its entries counted, their records not read.
                var count = 0, position: Position?
                repeat {
                    let read = try positions(
                        of: list, roots: roots, after: position, limit: 4096, now: now, in: transaction)
                    count += read.positions.count
                    position = read.next
                } while position != nil
                return count
            }
            var count: Int64 = 0
            for group in groups(of: list, roots: roots) {
                let kept = try transaction.withValue(.groups, group) { (try? CatalogGroup(decoding: $0)) ?? nil }
                if let kept = kept ?? nil { count += kept.photos + kept.videos }
            }
            return Int(clamping: count)
        }
    }

    /// The asset of `id` in `roots`, as the catalog keeps it; nil when it has none.
    public func asset(id: String, roots: [String]) throws(StoreError) -> Asset? {
        try assets(ids: [id], roots: roots)[id]
    }

    /// The assets of `ids` in `roots` the catalog keeps, by id, read in one transaction.
    public func assets(ids: [String], roots: [String]) throws(StoreError) -> [String: Asset] {
        try store.readCatalog { transaction throws(StoreError) in
            var assets: [String: Asset] = [:]
            for id in ids {
                guard let value = CatalogKeys.idValue(id) else { continue }
                let asset = try transaction.withValue(.assets, CatalogKeys.idKey(value)) {
                    (try? Asset(catalogRecord: $0)) ?? nil
                }
                if let asset = asset ?? nil, roots.contains(asset.root) { assets[id] = asset }
            }
            return assets
        }
    }

    /// The group of each root that holds `list`.
    private func groups(of list: List, roots: [String]) -> [[UInt8]] {
        Set(roots).sorted().compactMap { root in
            switch list {
            case .library: CatalogKeys.group(.library, root: root, 0)
            case .everything: CatalogKeys.group(.everything, root: root, 0)
            case .day(let day): CatalogKeys.group(.day, root: root, CatalogKeys.dayGroup(day))
            case .burst(let asset):
                asset.root == root
                    ? CatalogKeys.burstGroup(asset).map { CatalogKeys.group(.burst, root: root, $0) } : nil
            case .album(let album):
                switch album.kind {
                case .folder(let folderRoot, let path):
                    folderRoot == root
                        ? CatalogKeys.group(
                            .folder, root: root, FolderListing.folderHash(album.folderBytes ?? FilePath(path).bytes))
                        : nil
                case .smartAlbum(.recentlyAdded): CatalogKeys.group(.added, root: root, 0)
                case .smartAlbum(let kind):
                    SmartAlbum.allCases.firstIndex(of: kind).map {
                        CatalogKeys.group(.smartAlbum, root: root, UInt64($0))
                    }
                }
            }
        }
    }
}

extension LibraryCatalog.List {
    var isRecentlyAdded: Bool {
        if case .album(let album) = self, case .smartAlbum(.recentlyAdded) = album.kind { return true }
        return false
    }
}

extension UInt8 {
    /// 0-9 or a-f: how asset ids and positions are written.
    var isLowercaseHexDigit: Bool { (48...57).contains(self) || (97...102).contains(self) }
}
