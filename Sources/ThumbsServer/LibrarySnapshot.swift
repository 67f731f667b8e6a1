import Foundation
import ThumbsLibrary

/// The library as the server answers it at one moment: assets newest first, where each id is,
/// albums with their members, bursts with their frames, moments. Immutable: a change builds a
/// new one beside it, so a listing never sees half a change.
struct LibrarySnapshot: Sendable {
    /// Every asset, each burst's every frame included.
    let assets: FetchResult
    let positions: [String: Int]
    /// Positions in ``assets`` of what a listing shows: all but the burst frames another frame
    /// stands for, as PhotoKit fetches.
    let listed: [Int]
    let albums: [AssetCollection]
    /// Positions in ``assets`` of each album's members, by the album's URL id, in listing order
    /// (a burst as the frame that stands for it).
    let albumMembers: [String: [Int]]
    /// Positions in ``assets`` of each burst's frames, by ``burstKey(of:)``, in listing order.
    let burstFrames: [String: [Int]]
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
        var listed: [Int] = []
        var bursts: [String: [Int]] = [:]
        for (position, asset) in assets.enumerated() {
            if let burst = Self.burstKey(of: asset) { bursts[burst, default: []].append(position) }
            guard !asset.isHiddenBurstFrame else { continue }
            listed.append(position)
            members[
                AssetCollection.urlID(collectionID: AssetCollection.folderID(root: asset.root, path: asset.folder)),
                default: []
            ].append(position)
            for album in smartAlbums where album.contains(asset, now: now) {
                members[album.urlID, default: []].append(position)
            }
        }
        albumMembers = members
        self.listed = listed
        burstFrames = bursts
        moments = Moments(sorting: Array(assets), timeZone: timeZone)
    }

    /// The burst `asset` is a frame of, as the walk groups frames: one identifier in one folder
    /// (a copy of the folder elsewhere is a burst of its own); nil for an asset of no burst.
    static func burstKey(of asset: Asset) -> String? {
        asset.burstIdentifier.map { asset.root + "\u{0}" + asset.folder + "\u{0}" + $0 }
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
