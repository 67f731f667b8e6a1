import Foundation
import HTTPTypes
import Testing
import Thumbs
import ThumbsCoreTestSupport
import ThumbsTestSupport

@Suite("ThumbnailServer: subtypes and bursts", .enabled(if: SubtypeLibrary.isAvailable, SubtypeLibrary.skipReason))
struct ThumbnailServerSubtypesTests {
    @Test func everyAssetSaysItsSubtypesAndABurstIsOneAsset() async throws {
        let fixture = try ServerFixture(photos: 0)
        try SubtypeLibrary.write(into: fixture.root)
        try await fixture.run { client, _ in
            let assets = try await client.allAssets(limit: 5)
            #expect(assets.count == 8, "a burst is listed once")
            let byName = Dictionary(uniqueKeysWithValues: assets.map { ($0["name"] as? String ?? "", $0) })
            for (path, subtypes) in SubtypeLibrary.files {
                #expect(byName[path]?["mediaSubtypes"] as? [String] == subtypes, "\(path)")
            }
            let cover = try #require(byName[SubtypeLibrary.burstFrame(0)], "the first frame stands for the burst")
            let burst = try #require(cover["burst"] as? [String: Any])
            #expect(burst["representsBurst"] as? Bool == true && burst["count"] as? Int == SubtypeLibrary.burstFrames)
            #expect(burst["identifier"] as? String == SubtypeLibrary.burstUUID)

            let frames = try await client.get("/" + (try #require(burst["frames"] as? String))).json()
            #expect(frames["count"] as? Int == SubtypeLibrary.burstFrames)
            let all = try await client.get("/api/assets?includeAllBurstAssets=true&limit=50").json()
            #expect(all["count"] as? Int == 8 + SubtypeLibrary.burstFrames - 1)
            let plain = try #require(byName["sphere.jpg"]?["id"] as? String)
            let notABurst = try await client.get("/api/assets/\(plain)/burst")
            #expect(notABurst.status == .notFound)

            let albums = try await client.get("/api/albums").json()["albums"] as? [[String: Any]] ?? []
            for (title, expected) in SubtypeLibrary.smartAlbums {
                let album = try #require(albums.first { $0["title"] as? String == title }, "\(title) is listed")
                #expect(album["subtype"] as? String == expected.subtype && album["count"] as? Int == expected.count)
            }
            let moments = try await client.get("/api/moments").json()["moments"] as? [[String: Any]] ?? []
            #expect(moments.reduce(0) { $0 + ($1["count"] as? Int ?? 0) } == 8)
        }
    }

    /// The cover deleted, the next frame comes to stand for the burst: a listing kept by the
    /// changes loses the one and gains the other, with the burst's new count.
    @Test func aBurstsNextFrameIsInsertedWhenItsCoverGoes() async throws {
        let fixture = try ServerFixture(photos: 0)
        try SubtypeLibrary.write(into: fixture.root)
        let cover = fixture.root + "/" + SubtypeLibrary.burstFrame(0)
        try await fixture.run { client, _ in
            let page = try await client.get("/api/assets?limit=50").json()
            let token = try #require(page["changeToken"] as? String)
            let listed = page["assets"] as? [[String: Any]] ?? []
            let listedCover = try #require(listed.first { $0["name"] as? String == SubtypeLibrary.burstFrame(0) })
            try FileManager.default.removeItem(atPath: cover)
            var changes: [String: Any] = [:]
            #expect(
                try await eventually {
                    changes = try await client.get("/api/changes?since=\(token)").json()
                    return !(changes["inserted"] as? [Any] ?? []).isEmpty
                })
            #expect(changes["removed"] as? [String] == [try #require(listedCover["id"] as? String)])
            let inserted = changes["inserted"] as? [[String: Any]] ?? []
            #expect(inserted.map { $0["name"] as? String } == [SubtypeLibrary.burstFrame(1)])
            let burst = inserted.first?["burst"] as? [String: Any]
            #expect(burst?["count"] as? Int == SubtypeLibrary.burstFrames - 1)
            #expect((changes["changed"] as? [Any])?.isEmpty == true, "the hidden frames are not mentioned")
        }
    }
}
