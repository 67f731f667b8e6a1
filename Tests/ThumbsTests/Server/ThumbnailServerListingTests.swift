import Foundation
import HTTPTypes
import Testing
import Thumbs
import ThumbsCoreTestSupport
import ThumbsTestSupport
import ThumbsSamples

@Suite("ThumbnailServer: the JSON listing")
struct ThumbnailServerListingTests {
    @Test func pagesCoverEveryAssetOnceNewestFirstWithoutPaths() async throws {
        let fixture = try ServerFixture(photos: 7)
        let root = fixture.root
        try await fixture.run { client, _ in
            let first = try await client.get("/api/assets?limit=3")
            #expect(first.status == .ok)
            #expect(first.headers[.contentType] == "application/json; charset=utf-8")
            let page = try first.json()
            #expect(page["count"] as? Int == 7)
            #expect((page["assets"] as? [Any])?.count == 3)
            #expect(page["changeToken"] is String)
            let assets = try await client.allAssets(limit: 3)
            let ids = assets.compactMap { $0["id"] as? String }
            #expect(ids.count == 7 && Set(ids).count == 7)
            let dates = assets.compactMap { $0["date"] as? String }
            #expect(dates == dates.sorted(by: >))
            #expect(!first.text.contains(root))
            let asset = try #require(assets.first)
            #expect(asset["width"] is Int && asset["height"] is Int && asset["version"] is String)
            #expect((asset["name"] as? String)?.hasPrefix("photo-") == true)
        }
    }

    @Test func aRenderLeavesAPlaceholderInTheListing() async throws {
        let fixture = try ServerFixture(photos: 2)
        try await fixture.run { client, _ in
            let before = try await client.allAssets()
            #expect(before.allSatisfy { $0["placeholder"] == nil })
            let id = try #require(before.first?["id"] as? String)
            #expect(try await client.get("/thumbnails/\(id)/grid").status == .ok)
            var placeholder: String?
            #expect(
                try await eventually {
                    placeholder =
                        try await client.allAssets().first { $0["id"] as? String == id }?["placeholder"] as? String
                    return placeholder != nil
                })
            let hash = try #require(placeholder.flatMap(ThumbHash.init(base64:)))
            #expect(hash.bytes.count >= 5)
        }
    }

    @Test func aPartialRenderIsListedPartial() async throws {
        let fixture = try ServerFixture(photos: 1, broken: true)
        try FileAge.settle(fixture.root + "/broken.jpg")  // damage, not a copy under way
        try await fixture.run { client, _ in
            let before = try await client.allAssets()
            #expect(before.allSatisfy { $0["partial"] == nil })
            let broken = try #require(before.first { $0["name"] as? String == "broken.jpg" })
            let id = try #require(broken["id"] as? String)
            #expect(try await client.get("/thumbnails/\(id)/grid").status == .ok)
            #expect(
                try await eventually {
                    try await client.allAssets().first { $0["id"] as? String == id }?["partial"] as? Bool == true
                })
            #expect(try await client.allAssets().filter { $0["partial"] != nil }.count == 1, "the whole photo is not")
        }
    }

    @Test func warmingAtStartFillsEveryPlaceholder() async throws {
        let fixture = try ServerFixture(photos: 3) { $0.warmOnStart = true }
        try await fixture.run { client, _ in
            let filled = try await eventually {
                try await client.allAssets().allSatisfy { $0["placeholder"] is String }
            }
            #expect(filled)
        }
    }

    @Test func badCursorsAndLimitsAreRefused() async throws {
        let fixture = try ServerFixture(photos: 2)
        try await fixture.run { client, _ in
            for uri in [
                "/api/assets?cursor=nonsense", "/api/assets?cursor=" + String(repeating: "z", count: 32),
                "/api/assets?limit=0", "/api/assets?limit=100000", "/api/assets?limit=ten",
            ] {
                let response = try await client.get(uri)
                #expect(response.status == .badRequest, "\(uri)")
                #expect(try response.json()["error"] is String)
            }
        }
    }

    @Test func albumsAndTheirAssets() async throws {
        let fixture = try ServerFixture(photos: 3)
        try fixture.photos.addPhoto("trip/beach.jpg", width: 300, height: 200)
        try await fixture.run { client, _ in
            let albums = try await client.get("/api/albums").json()["albums"] as? [[String: Any]] ?? []
            let trip = try #require(albums.first { $0["title"] as? String == "trip" })
            let id = try #require(trip["id"] as? String)
            #expect(id.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" })
            #expect(trip["count"] as? Int == 1 && trip["kind"] as? String == "folder")
            let page = try await client.get("/api/albums/\(id)/assets").json()
            #expect((page["assets"] as? [[String: Any]])?.first?["name"] as? String == "trip/beach.jpg")
            let all = try #require(albums.first { $0["kind"] as? String == "smart" && $0["count"] as? Int == 4 })
            #expect(try await client.get("/api/albums/\(all["id"]!)/assets").json()["count"] as? Int == 4)
            #expect(try await client.get("/api/albums/no-such-album/assets").status == .notFound)
            // No video: the Videos album is not listed, and asked for all the same it is empty.
            #expect(!albums.contains { $0["title"] as? String == "Videos" })
            let videos = try await client.get("/api/albums/smart-videos/assets")
            let count = try videos.json()["count"] as? Int
            #expect(videos.status == .ok && count == 0)
        }
    }

    @Test func momentsGroupTheAssetsByDay() async throws {
        let fixture = try ServerFixture(photos: 4)
        try await fixture.run { client, _ in
            let moments = try await client.get("/api/moments").json()["moments"] as? [[String: Any]] ?? []
            #expect(moments.reduce(0) { $0 + ($1["count"] as? Int ?? 0) } == 4)
            let moment = try #require(moments.first)
            #expect((moment["day"] as? String)?.count == 10 && moment["title"] is String)
            #expect((moment["assets"] as? [String])?.count == moment["count"] as? Int)
        }
    }

    @Test func renditionsAreListed() async throws {
        let fixture = try ServerFixture(photos: 1)
        try await fixture.run { client, _ in
            let renditions = try await client.get("/api/renditions").json()["renditions"] as? [[String: Any]] ?? []
            #expect(renditions.map { $0["name"] as? String } == ["grid", "large", "medium"])
            #expect(renditions.first?["width"] as? Int == 128 && renditions.first?["contentMode"] as? String == "fill")
        }
    }

    @Test func changesSinceATokenFollowTheLibrary() async throws {
        let fixture = try ServerFixture(photos: 2)
        let photos = fixture.photos
        try await fixture.run { client, _ in
            let token = try #require(try await client.get("/api/assets").json()["changeToken"] as? String)
            let nothing = try await client.get("/api/changes?since=\(token)").json()
            #expect((nothing["inserted"] as? [Any])?.isEmpty == true && nothing["changeToken"] as? String == token)

            try photos.addPhoto("new.jpg")
            var inserted: [[String: Any]] = []
            var latest = token
            #expect(
                try await eventually {
                    let changes = try await client.get("/api/changes?since=\(token)").json()
                    inserted = changes["inserted"] as? [[String: Any]] ?? []
                    latest = changes["changeToken"] as? String ?? token
                    return !inserted.isEmpty
                })
            #expect(inserted.map { $0["name"] as? String } == ["new.jpg"])
            #expect(try await client.get("/api/assets").json()["count"] as? Int == 3)

            try photos.remove("new.jpg")
            var removed: [String] = []
            #expect(
                try await eventually {
                    removed = try await client.get("/api/changes?since=\(latest)").json()["removed"] as? [String] ?? []
                    return !removed.isEmpty
                })
            #expect(removed == [inserted[0]["id"] as? String])
            // Inserted then removed since the first token: nothing to tell.
            let net = try await client.get("/api/changes?since=\(token)").json()
            #expect((net["inserted"] as? [Any])?.isEmpty == true && (net["removed"] as? [Any])?.isEmpty == true)
        }
    }

    @Test func badAndForeignTokensAreToldApart() async throws {
        let fixture = try ServerFixture(photos: 1)
        try await fixture.run { client, _ in
            #expect(try await client.get("/api/changes").status == .badRequest)
            #expect(try await client.get("/api/changes?since=garbage").status == .badRequest)
            let foreign = try await client.get("/api/changes?since=0123456789abcdef-0")
            #expect(foreign.status == .gone)
            #expect(try foreign.json()["error"] as? String == "expired-token")
        }
    }
}
