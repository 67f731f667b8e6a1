import Hummingbird
import ThumbsCore
import ThumbsLibrary
import ThumbsSettings

extension ThumbnailService {
    /// `GET /api/assets` and `GET /api/albums/{id}/assets`: a page of assets, newest first, a
    /// burst as the frame that stands for it (each of its frames with
    /// `includeAllBurstAssets=true`, for the library's listing).
    func assets(_ request: Request, album: String?) throws -> Response {
        try assets(request) { snapshot throws(APIError) in
            if let album {
                if let members = snapshot.albumMembers[album] { return members }
                // A smart album emptied since it was listed (the last video removed) is empty.
                guard Self.smartAlbumIDs.contains(album) else {
                    throw APIError.notFound("unknown-album", "no album \(album)")
                }
                return []
            }
            let all = request.uri.queryParameters["includeAllBurstAssets"].map { $0 == "true" || $0 == "1" } ?? false
            return all ? Array(snapshot.assets.indices) : snapshot.listed
        }
    }

    /// Every smart album's URL id, listed or not.
    static let smartAlbumIDs = Set(
        SmartAlbum.allCases.map { AssetCollection.urlID(collectionID: AssetCollection.smartAlbumID($0)) })

    /// `GET /api/assets/{id}/burst`: the frames of the burst the asset is a frame of (in its
    /// folder), newest first, a page at a time.
    func burstFrames(_ request: Request, id: String?) throws -> Response {
        let asset = try asset(id)
        guard let burst = LibrarySnapshot.burstKey(of: asset) else {
            throw APIError.notFound("no-burst", "\(asset.relativePath) is not a frame of a burst")
        }
        return try assets(request) { snapshot in snapshot.burstFrames[burst] ?? [] }
    }

    /// A page of the assets at the positions `members` gives in the current snapshot.
    private func assets(
        _ request: Request, members: (LibrarySnapshot) throws(APIError) -> [Int]
    ) throws -> Response {
        let (snapshot, token) = index.current
        let positions = try members(snapshot)
        let limit = try pageSize(request)
        var start = 0
        if let text = cursorText(request) {
            guard let cursor = PageCursor(text) else {
                throw APIError.badRequest("bad-cursor", "cursor is not one a listing returned")
            }
            start = cursor.start(in: positions, of: snapshot.assets)
        }
        let end = min(positions.count, start + limit)
        let page = positions[start..<end].map { snapshot.assets[$0] }
        let next = end < positions.count ? page.last.map { PageCursor(after: $0).text } : nil
        return try json(
            AssetPage(
                assets: page.map(listed), nextCursor: next,
                count: positions.count, changeToken: token))
    }

    private func pageSize(_ request: Request) throws -> Int {
        guard let text = request.uri.queryParameters["limit"], !text.isEmpty else {
            return min(200, configuration.maxPageSize)
        }
        guard let limit = Int(text), (1...configuration.maxPageSize).contains(limit) else {
            throw APIError.badRequest("bad-limit", "limit is 1 to \(configuration.maxPageSize)")
        }
        return limit
    }

    /// `GET /api/albums`: a page of albums, smart albums first, then folders by path.
    func albums(_ request: Request) throws -> Response {
        let (snapshot, token) = index.current
        let limit = try pageSize(request)
        var start = snapshot.albums.startIndex
        if let text = cursorText(request) {
            guard let cursor = ListPosition.Album(text) else {
                throw APIError.badRequest("bad-cursor", "cursor is not one a listing returned")
            }
            start = ListPosition.firstIndex(in: snapshot.albums) { cursor < ListPosition.Album($0) }
        }
        let page = snapshot.albums[start..<min(snapshot.albums.count, start + limit)]
        let next = page.endIndex < snapshot.albums.count ? page.last.map { ListPosition.Album($0).text } : nil
        return try json(
            AlbumPage(
                albums: page.map(AlbumJSON.init), nextCursor: next, count: snapshot.albums.count, changeToken: token))
    }

    /// `GET /api/moments`: a page of days, newest first, each with its count and its first
    /// assets (``MomentJSON/assetsShown``).
    func moments(_ request: Request) throws -> Response {
        let (snapshot, token) = index.current
        let sections = snapshot.moments.sections
        let limit = try pageSize(request)
        var start = sections.startIndex
        if let text = cursorText(request) {
            guard let day = ListPosition.day(text) else {
                throw APIError.badRequest("bad-cursor", "cursor is not one a listing returned")
            }
            start = ListPosition.firstIndex(in: sections) { $0.day < day }
        }
        let page = sections[start..<min(sections.count, start + limit)]
        let next = page.endIndex < sections.count ? page.last?.day.description : nil
        return try json(
            MomentPage(moments: page.map(MomentJSON.init), nextCursor: next, count: sections.count, changeToken: token))
    }

    /// `GET /api/moments/{day}/assets`: a page of one day's assets, newest first.
    func momentAssets(_ request: Request, day text: String?) throws -> Response {
        guard let text, let day = ListPosition.day(text) else {
            throw APIError.badRequest("bad-day", "a day is written 2024-05-01")
        }
        return try assets(request) { snapshot in
            let sections = snapshot.moments.sections
            let found = ListPosition.firstIndex(in: sections) { $0.day <= day }
            guard found < sections.count, sections[found].day == day else { return [] }
            return sections[found].items.compactMap { snapshot.positions[$0.id] }
        }
    }

    /// The `cursor` parameter, when it is given and not empty.
    private func cursorText(_ request: Request) -> String? {
        guard let text = request.uri.queryParameters["cursor"].map(String.init), !text.isEmpty else { return nil }
        return text
    }

    /// `GET /api/changes?since=`: what changed since a token a listing returned.
    func changes(_ request: Request) throws -> Response {
        guard let since = request.uri.queryParameters["since"].map(String.init), !since.isEmpty else {
            throw APIError.badRequest("bad-token", "since= takes the changeToken of a listing")
        }
        let (lookup, snapshot, token) = index.changes(since: since)
        switch lookup {
        case .malformed:
            throw APIError.badRequest("bad-token", "since= takes the changeToken of a listing")
        case .expired:
            throw APIError(
                status: .gone, kind: "expired-token",
                message: "the token is older than the changes kept, or of another run: list again")
        case .merged(let merged):
            // The log holds the listing's changes (LibraryIndex.listingEntry): burst frames come
            // and go as they come to stand for their burst or stop.
            let assets = { (ids: [String]) in ids.compactMap(snapshot.asset(id:)).map(self.listed) }
            return try json(
                ChangeList(
                    changeToken: token, removed: merged.removed, inserted: assets(merged.inserted),
                    changed: assets(merged.changed)))
        }
    }

    func renditionList() throws -> Response {
        try json(
            RenditionList(
                renditions: renditions.map {
                    RenditionJSON(
                        name: $0.name, width: $0.spec.size.width, height: $0.spec.size.height,
                        contentMode: $0.spec.contentMode.rawValue, format: $0.spec.format.rawValue)
                }))
    }
}
