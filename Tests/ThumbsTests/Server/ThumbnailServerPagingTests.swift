import Foundation
import HTTPTypes
import Testing
import Thumbs
import ThumbsCoreTestSupport
import ThumbsTestSupport

/// Every list of the JSON API pages: albums and moments by cursor, a moment's assets apart.
@Suite("ThumbnailServer: lists a page at a time")
struct ThumbnailServerPagingTests {
    /// Every item of a list, following `nextCursor` `limit` at a time.
    private func all(_ client: ServerClient, _ path: String, _ key: String, limit: Int) async throws
        -> [[String: Any]]
    {
        var items: [[String: Any]] = []
        var cursor = ""
        repeat {
            let response = try await client.get("\(path)?limit=\(limit)&cursor=\(cursor)")
            #expect(response.status == .ok)
            let page = try response.json()
            let got = page[key] as? [[String: Any]] ?? []
            #expect(got.count <= limit)
            items += got
            cursor = page["nextCursor"] as? String ?? ""
        } while !cursor.isEmpty
        return items
    }

    /// Sets the modification time of library/`name` to noon, `daysAgo` days before 2024-06-30.
    private func date(_ fixture: ServerFixture, _ name: String, daysAgo: Int) throws {
        let date = Date(timeIntervalSince1970: TimeInterval(1_719_748_800 - daysAgo * 86_400))
        try FileManager.default.setAttributes([.modificationDate: date], ofItemAtPath: fixture.root + "/" + name)
    }

    @Test func albumsPageInListingOrderEachOnce() async throws {
        let fixture = try ServerFixture(photos: 1)
        for folder in ["a", "b", "c", "d/e"] { try fixture.photos.addPhoto("\(folder)/x.jpg", width: 200, height: 150) }
        try await fixture.run { client, _ in
            let whole = try await client.get("/api/albums").json()
            let expected = (whole["albums"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
            #expect(whole["count"] as? Int == expected.count && whole["nextCursor"] == nil)
            #expect(expected.count >= 6, "All Photos, Recently Added and the folders")
            let paged = try await all(client, "/api/albums", "albums", limit: 2).compactMap { $0["id"] as? String }
            #expect(paged == expected)
            for bad in ["x", "99.", "1.0", "3.zz"] {
                let response = try await client.get("/api/albums?cursor=\(bad)")
                #expect(response.status == .badRequest, "\(bad)")
            }
        }
    }

    @Test func aCursorPastARemovedAlbumGoesOnFromItsPlace() async throws {
        let fixture = try ServerFixture(photos: 0)
        let photos = fixture.photos
        for folder in ["a", "b", "c"] { try photos.addPhoto("\(folder)/x.jpg", width: 200, height: 150) }
        try await fixture.run { client, _ in
            let all = try await client.get("/api/albums").json()["albums"] as? [[String: Any]] ?? []
            let titles = all.compactMap { $0["title"] as? String }
            let b = try #require(titles.firstIndex(of: "b"))
            let page = try await client.get("/api/albums?limit=\(b + 1)").json()
            let cursor = try #require(page["nextCursor"] as? String)
            try photos.remove("b")
            #expect(
                try await eventually {
                    let albums = try await client.get("/api/albums").json()["albums"] as? [[String: Any]] ?? []
                    return !albums.contains { $0["title"] as? String == "b" }
                })
            let next = try await client.get("/api/albums?cursor=\(cursor)").json()["albums"] as? [[String: Any]] ?? []
            #expect(next.compactMap { $0["title"] as? String } == ["c"])
        }
    }

    @Test func momentsPageByDayAndShowTheirFirstAssets() async throws {
        let fixture = try ServerFixture(photos: 0)
        for index in 0..<30 {
            try fixture.photos.addPhoto("busy/\(index).jpg", width: 64, height: 48)
            try date(fixture, "busy/\(index).jpg", daysAgo: 0)
        }
        for day in 1...4 {
            try fixture.photos.addPhoto("day\(day).jpg", width: 64, height: 48)
            try date(fixture, "day\(day).jpg", daysAgo: day)
        }
        try await fixture.run { client, _ in
            let moments = try await all(client, "/api/moments", "moments", limit: 2)
            let days = moments.compactMap { $0["day"] as? String }
            #expect(days == ["2024-06-30", "2024-06-29", "2024-06-28", "2024-06-27", "2024-06-26"])
            let busy = try #require(moments.first)
            #expect(busy["count"] as? Int == 30 && (busy["assets"] as? [String])?.count == 25)
            let contents = try await all(client, "/api/moments/2024-06-30/assets", "assets", limit: 7)
            let ids = contents.compactMap { $0["id"] as? String }
            #expect(ids.count == 30 && Set(ids).count == 30)
            #expect(Array(ids.prefix(25)) == busy["assets"] as? [String])
            let none = try await client.get("/api/moments/2001-01-01/assets").json()
            #expect(none["count"] as? Int == 0)
            #expect(try await client.get("/api/moments/yesterday/assets").status == .badRequest)
            #expect(try await client.get("/api/moments?cursor=2024-13-01").status == .badRequest)
        }
    }
}
