import Hummingbird
import ThumbsCore
import ThumbsLibrary
import ThumbsSettings

extension ThumbnailService {
    /// `GET /api/assets` and `GET /api/albums/{id}/assets`: a page of assets, newest first, a
    /// burst as the frame that stands for it (each of its frames with
    /// `includeAllBurstAssets=true`, for the library's listing).
    func assets(_ request: Request, album: String?) throws -> Response {
        let token = index.token
        guard let album else {
            let all = request.uri.queryParameters["includeAllBurstAssets"].map { $0 == "true" || $0 == "1" } ?? false
            return try assets(request, of: all ? .everything : .library, token: token)
        }
        guard let found = try index.albums().byURLID[album] else {
            // A smart album emptied since it was listed (the last video removed) is empty.
            guard Self.smartAlbumIDs.contains(album) else {
                throw APIError.notFound("unknown-album", "no album \(album)")
            }
            return try json(AssetPage(assets: [], nextCursor: nil, count: 0, changeToken: token))
        }
        return try assets(request, of: .album(found), count: found.count(of: .all), token: token)
    }

    /// Every smart album's URL id, listed or not.
    static let smartAlbumIDs = Set(
        SmartAlbum.allCases.map { AssetCollection.urlID(collectionID: AssetCollection.smartAlbumID($0)) })

    /// `GET /api/assets/{id}/burst`: the frames of the burst the asset is a frame of (in its
    /// folder), newest first, a page at a time.
    func burstFrames(_ request: Request, id: String?) throws -> Response {
        let token = index.token
        let asset = try asset(id)
        guard asset.burstIdentifier != nil else {
            throw APIError.notFound("no-burst", "\(asset.relativePath) is not a frame of a burst")
        }
        return try assets(request, of: .burst(of: asset), token: token)
    }

    /// A page of `list`, after the request's cursor; `count` when the caller knows it.
    private func assets(
        _ request: Request, of list: LibraryCatalog.List, count: Int? = nil, token: String
    ) throws -> Response {
        let limit = try pageSize(request)
        var position: LibraryCatalog.Position?
        if let text = cursorText(request) {
            guard let cursor = LibraryCatalog.Position(text) else {
                throw APIError.badRequest("bad-cursor", "cursor is not one a listing returned")
            }
            position = cursor
        }
        let page = try index.catalog.page(of: list, roots: index.roots, after: position, limit: limit)
        return try json(
            AssetPage(
                assets: page.assets.map(listed), nextCursor: page.next?.text,
                count: try count ?? index.catalog.count(of: list, roots: index.roots), changeToken: token))
    }

    private func pageSize(_ request: Request) throws -> Int {
        guard let text = request.uri.queryParameters["limit"], !text.isEmpty else {
            return configuration.defaultPageSize
        }
        guard let limit = Int(text), (1...configuration.maxPageSize).contains(limit) else {
            throw APIError.badRequest("bad-limit", "limit is 1 to \(configuration.maxPageSize)")
        }
        return limit
    }

    /// `GET /api/albums`: a page of albums, smart albums first, then folders by path.
    func albums(_ request: Request) throws -> Response {
        let token = index.token
        let albums = try index.albums().list
        let limit = try pageSize(request)
        var start = albums.startIndex
        if let text = cursorText(request) {
            guard let cursor = ListPosition.Album(text) else {
                throw APIError.badRequest("bad-cursor", "cursor is not one a listing returned")
            }
            start = ListPosition.firstIndex(in: albums) { cursor < ListPosition.Album($0) }
        }
        let page = albums[start..<min(albums.count, start + limit)]
        let next = page.endIndex < albums.count ? page.last.map { ListPosition.Album($0).text } : nil
        return try json(
            AlbumPage(albums: page.map(AlbumJSON.init), nextCursor: next, count: albums.count, changeToken: token))
    }

    /// `GET /api/moments`: a page of days, newest first, each with its count and its first
    /// assets (``MomentJSON/assetsShown``).
    func moments(_ request: Request) throws -> Response {
        let token = index.token
        let days = try index.days()
        let limit = try pageSize(request)
        var start = days.startIndex
        if let text = cursorText(request) {
            guard let day = ListPosition.day(text) else {
                throw APIError.badRequest("bad-cursor", "cursor is not one a listing returned")
            }
            start = ListPosition.firstIndex(in: days) { $0.day < day }
        }
        let page = days[start..<min(days.count, start + limit)]
        let next = page.endIndex < days.count ? page.last?.day.description : nil
        return try json(
            MomentPage(moments: try index.moments(of: page), nextCursor: next, count: days.count, changeToken: token))
    }

    /// `GET /api/moments/{day}/assets`: a page of one day's assets, newest first.
    func momentAssets(_ request: Request, day text: String?) throws -> Response {
        guard let text, let day = ListPosition.day(text) else {
            throw APIError.badRequest("bad-day", "a day is written 2024-05-01")
        }
        return try assets(request, of: .day(day), token: index.token)
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
        let (lookup, token) = index.changes(since: since)
        switch lookup {
        case .malformed:
            throw APIError.badRequest("bad-token", "since= takes the changeToken of a listing")
        case .expired:
            throw APIError(
                status: .gone, kind: "expired-token",
                message: "the token is older than the changes kept, or of another run: list again")
        case .merged(let merged):
            // The log holds the listing's changes (CatalogChanges): burst frames come and go as
            // they come to stand for their burst or stop. An asset gone since is not listed.
            let assets = { (ids: [String]) throws in try ids.compactMap(self.index.asset(id:)).map(self.listed) }
            return try json(
                ChangeList(
                    changeToken: token, removed: merged.removed, inserted: try assets(merged.inserted),
                    changed: try assets(merged.changed)))
        }
    }

    func renditionList() throws -> Response {
        try json(
            RenditionList(
                renditions: renditions.map {
                    RenditionJSON(
                        name: $0.name, width: $0.spec.size.width, height: $0.spec.size.height,
                        contentMode: $0.spec.contentMode.rawValue, format: $0.spec.format.rawValue,
                        hdr: $0.spec.hdr.rawValue)
                }))
    }
}
