import Foundation
import SystemPackage
import ThumbsCore
import ThumbsStore
import ThumbsSupport

extension LibraryCatalog {
    /// One day of the catalog's moments.
    public struct Day: Sendable, Hashable {
        public var day: ThumbsLibrary.Day
        public var photos: Int
        public var videos: Int
    }

    /// The albums of `roots` as ``AlbumBuilder`` gives them: the smart albums (All Photos
    /// always, the others when they hold something; Recently Added as of `now`), then the
    /// folders that hold assets, by root and path; with their counts and key assets. Reads the
    /// groups' counts, not the assets: a few records per album.
    public func albums(roots: [String], now: Date = Date()) throws(StoreError) -> [AssetCollection] {
        try store.readCatalog { transaction throws(StoreError) in
            var albums: [AssetCollection] = []
            for (index, kind) in SmartAlbum.allCases.enumerated() {
                let album =
                    kind == .recentlyAdded
                    ? try recentlyAdded(roots: roots, now: now, in: transaction)
                    : try collection(
                        .smartAlbum(kind), title: kind.rawValue,
                        groups: roots.map { CatalogKeys.group(.smartAlbum, root: $0, UInt64(index)) }, in: transaction)
                if kind == .allPhotos || album.count(of: .all) > 0 { albums.append(album) }
            }
            var folders: [AssetCollection] = []
            for root in Set(roots) {
                let prefix = CatalogKeys.group(.folder, root: root, 0).prefix(9)
                var found: [(key: [UInt8], group: CatalogGroup)] = []
                try transaction.forEach(.groups, from: Array(prefix)) { key, record in
                    guard key.count == 17, key.starts(with: prefix) else { return false }
                    if let group = (try? CatalogGroup(decoding: record)) ?? nil, group.root == root {
                        found.append((Array(key), group))
                    }
                    return true
                }
                for (key, group) in found where group.photos + group.videos > 0 {
                    let path = FilePath(bytes: group.folder).displayString
                    var album = try collection(
                        .folder(root: root, path: path), title: LibraryBatch.Folder(root: root, path: path).title,
                        groups: [key], in: transaction)
                    album.folderBytes = group.folder
                    folders.append(album)
                }
            }
            return albums + folders.sorted { $0.sortKey < $1.sortKey }
        }
    }

    /// The days of `roots`, newest first, with their counts.
    public func moments(roots: [String]) throws(StoreError) -> [Day] {
        try store.readCatalog { transaction throws(StoreError) in
            var days: [UInt64: (photos: Int, videos: Int)] = [:]
            for root in Set(roots) {
                let prefix = Array(CatalogKeys.group(.day, root: root, 0).prefix(9))
                try transaction.forEach(.groups, from: prefix) { key, record throws(StoreError) in
                    guard key.count == 17, key.starts(with: prefix) else { return false }
                    var reader = ByteReader(UnsafeRawBufferPointer(rebasing: key[9...]), record: "catalog day")
                    let day = try reader.u64()
                    if let group = (try? CatalogGroup(decoding: record)) ?? nil {
                        days[day, default: (0, 0)].photos += Int(clamping: group.photos)
                        days[day, default: (0, 0)].videos += Int(clamping: group.videos)
                    }
                    return true
                }
            }
            return days.keys.sorted(by: >).compactMap { key in
                guard let counts = days[key], counts.photos + counts.videos > 0 else { return nil }
                return Day(day: CatalogKeys.day(ofGroup: key), photos: counts.photos, videos: counts.videos)
            }
        }
    }

    /// A collection whose counts are those of `groups` (one per root), its key assets the best
    /// of theirs.
    private func collection(
        _ kind: AssetCollection.Kind, title: String, groups: [[UInt8]], in transaction: CatalogTransaction
    ) throws(StoreError) -> AssetCollection {
        var total = CatalogGroup()
        var candidates: [KeyCandidate] = []
        for key in groups {
            let group = try transaction.withValue(.groups, key) { (try? CatalogGroup(decoding: $0)) ?? nil }
            guard let group = group ?? nil else { continue }
            total.photos += group.photos
            total.videos += group.videos
            total.bytes += group.bytes
            total.files += group.files
            candidates += try keyCandidates(of: key, in: transaction)
        }
        return AssetCollection(
            kind: kind, title: title, photoCount: Int(clamping: total.photos), videoCount: Int(clamping: total.videos),
            totalBytes: UInt64(clamping: total.bytes), estimatedCount: Int(clamping: total.files),
            keyAssets: try keyAssets(candidates, in: transaction))
    }

    /// Recently Added as of `now`: the start of each root's list by modification time.
    private func recentlyAdded(roots: [String], now: Date, in transaction: CatalogTransaction) throws(StoreError)
        -> AssetCollection
    {
        var photos = 0, videos = 0, bytes: UInt64 = 0, files = 0
        var candidates: [KeyCandidate] = []
        for root in Set(roots) {
            let prefix = CatalogKeys.group(.added, root: root, 0)
            try transaction.forEach(.order, from: prefix) { key, value throws(StoreError) in
                guard key.count == 33, key.starts(with: prefix) else { return false }
                var reader = ByteReader(UnsafeRawBufferPointer(rebasing: key[17...]), record: "catalog key")
                let added = CatalogKeys.date(ofOrder: try reader.u64()), id = try reader.u64()
                guard now.timeIntervalSince(added) <= SmartAlbum.recentInterval else { return false }
                let entry = try OrderEntry(decoding: value)
                bytes &+= entry.bytes
                files += 1
                guard entry.isListed else { return true }
                if entry.isVideo { videos += 1 } else { photos += 1 }
                candidates.append(KeyCandidate(entry: entry, id: id))
                candidates = Array(candidates.sorted().prefix(3))
                return true
            }
        }
        return AssetCollection(
            kind: .smartAlbum(.recentlyAdded), title: SmartAlbum.recentlyAdded.rawValue, photoCount: photos,
            videoCount: videos, totalBytes: bytes, estimatedCount: files,
            keyAssets: try keyAssets(candidates, in: transaction))
    }

    /// An asset that may be a key asset, as its order entry tells: the readable first, then the
    /// newest, then by id.
    private struct KeyCandidate: Comparable {
        let entry: OrderEntry
        let id: UInt64

        static func < (lhs: Self, rhs: Self) -> Bool {
            if lhs.entry.isReadable != rhs.entry.isReadable { return lhs.entry.isReadable }
            return (lhs.entry.dateOrder, lhs.id) < (rhs.entry.dateOrder, rhs.id)
        }
    }

    /// The start of a group's order that holds its key assets: up to three readable ones, and
    /// the unreadable ones before them (in case there are fewer than three readable).
    private func keyCandidates(of group: [UInt8], in transaction: CatalogTransaction) throws(StoreError)
        -> [KeyCandidate]
    {
        var candidates: [KeyCandidate] = [], readable = 0
        try transaction.forEach(.order, from: group) { key, value throws(StoreError) in
            guard key.count == 33, key.starts(with: group) else { return false }
            var reader = ByteReader(UnsafeRawBufferPointer(rebasing: key[25...]), record: "catalog key")
            let entry = try OrderEntry(decoding: value)
            if entry.isReadable { readable += 1 } else if candidates.count - readable >= 3 { return true }
            candidates.append(KeyCandidate(entry: entry, id: try reader.u64()))
            return readable < 3
        }
        return candidates
    }

    /// The best three of `candidates`, read from their records.
    private func keyAssets(_ candidates: [KeyCandidate], in transaction: CatalogTransaction) throws(StoreError)
        -> [Asset]
    {
        var assets: [Asset] = []
        for candidate in candidates.sorted().prefix(3) {
            let asset = try transaction.withValue(.assets, CatalogKeys.idKey(candidate.id)) {
                (try? Asset(catalogRecord: $0)) ?? nil
            }
            if let asset = asset ?? nil { assets.append(asset) }
        }
        return assets
    }
}
