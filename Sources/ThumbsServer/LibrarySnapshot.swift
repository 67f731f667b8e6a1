import Foundation
import ThumbsLibrary

/// The library as the server answers it at one moment: assets newest first, where each id is,
/// albums with their members, moments. Immutable: a change builds a new one beside it, so a
/// listing never sees half a change.
struct LibrarySnapshot: Sendable {
    let assets: FetchResult
    let positions: [String: Int]
    let albums: [AssetCollection]
    /// Positions in ``assets`` of each album's members, by the album's URL id, in listing order.
    let albumMembers: [String: [Int]]
    let moments: Moments

    init(_ assets: FetchResult, now: Date = Date(), timeZone: TimeZone = .current) {
        self.assets = assets
        var positions: [String: Int] = [:]
        positions.reserveCapacity(assets.count)
        for (position, asset) in assets.enumerated() { positions[asset.id] = position }
        self.positions = positions
        var builder = AlbumBuilder(now: now)
        var batch = LibraryBatch()
        batch.assets = Array(assets)
        builder.add(batch)
        albums = builder.smartAlbums + builder.folderAlbums
        // One pass over the assets: a folder album's id follows from the asset's folder, and
        // smart albums are few.
        let smartAlbums = builder.smartAlbums
        var members: [String: [Int]] = [:]
        for (position, asset) in assets.enumerated() {
            members[
                AssetCollection.urlID(collectionID: AssetCollection.folderID(root: asset.root, path: asset.folder)),
                default: []
            ].append(position)
            for album in smartAlbums where album.contains(asset, now: now) {
                members[album.urlID, default: []].append(position)
            }
        }
        albumMembers = members
        moments = Moments(sorting: Array(assets), timeZone: timeZone)
    }

    func asset(id: String) -> Asset? {
        positions[id].map { assets[$0] }
    }
}

extension AssetCollection {
    /// The album's id as URLs carry it: letters, digits and "-" only ("smart-all-photos",
    /// "folder-0123456789abcdef"), so that it needs no escaping.
    var urlID: String { Self.urlID(collectionID: id) }

    static func urlID(collectionID: String) -> String {
        String(
            collectionID.lowercased().map { character in
                character.isASCII && (character.isLetter || character.isNumber) ? character : "-"
            })
    }
}
