import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Testing
import Thumbs
import ThumbsCoreTestSupport
import ThumbsTestSupport

@Suite("ThumbnailServer: cached hits")
struct ThumbnailServerHitTests {
    /// The id of the fixture's first asset, its grid rendition rendered (so in memory).
    private static func renderedAsset(_ client: any TestClientProtocol) async throws -> String {
        let id = try #require(try await client.allAssets().first?["id"] as? String)
        #expect(try await client.get("/thumbnails/\(id)/grid").status == .ok)
        return id
    }

    @Test func aHitIsAnsweredFromMemoryAndCounted() async throws {
        let fixture = try ServerFixture(photos: 1)
        try await fixture.run { client, _ in
            let id = try await Self.renderedAsset(client)
            let hit = try await client.get("/thumbnails/\(id)/grid")
            #expect(hit.status == .ok && hit.headers[.contentType] == "image/jpeg")
            #expect(hit.headers[.contentLength] == String(hit.body.readableBytes))
            #expect(Array(hit.body.readableBytesView).starts(with: [0xFF, 0xD8]))
            let metrics = try await client.get("/metrics").text
            #expect(metrics.contains(#"thumbs_thumbnails_total{tier="rendered"} 1"#))
            #expect(metrics.contains(#"thumbs_thumbnails_total{tier="memory"} 1"#))
            #expect(metrics.contains(#"thumbs_requests_total{route="thumbnail",status="200"} 2"#))
        }
    }

    @Test func pipelinedRequestsAreAnsweredInOrder() async throws {
        let fixture = try ServerFixture(photos: 1)
        try await fixture.run { client, port in
            let id = try await Self.renderedAsset(client)
            let hit = "GET /thumbnails/\(id)/grid HTTP/1.1\r\nHost: x\r\n\r\n"
            let slow = ["/api/renditions", "/healthz", "/thumbnails/\(id)/medium", "/api/assets"].map {
                "GET \($0) HTTP/1.1\r\nHost: x\r\n\r\n"
            }
            let pipeline = hit + slow[0] + hit + hit + slow[1] + slow[2] + hit + slow[3] + hit
            let last = "GET /healthz HTTP/1.1\r\nConnection: close\r\n\r\n"
            let answers = RawAnswer.split(
                try await RawConnection(port: port).exchange([Array((pipeline + last).utf8)]).bytes)
            let kinds = answers.map { $0.fields["content-type"]?.split(separator: "/").first ?? "" }
            #expect(
                kinds == [
                    "image", "application", "image", "image", "application", "image", "image", "application", "image",
                    "application",
                ])
            #expect(answers.allSatisfy { $0.status == 200 })
        }
    }

    @Test func revalidationsAndHeadsOfHitsCarryTheImagesFields() async throws {
        let fixture = try ServerFixture(photos: 1)
        try await fixture.run { client, port in
            let id = try await Self.renderedAsset(client)
            let etag = try #require(try await client.get("/thumbnails/\(id)/grid").headers[.eTag])
            let requests =
                "GET /thumbnails/\(id)/grid HTTP/1.1\r\nIf-None-Match: \(etag)\r\n\r\n"
                + "HEAD /thumbnails/\(id)/grid HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
            let answers = RawAnswer.split(try await RawConnection(port: port).exchange([Array(requests.utf8)]).bytes)
            #expect(answers.map(\.status) == [304, 200])
            #expect(answers.last?.fields["content-length"].flatMap { Int($0) } ?? 0 > 0)
            #expect(answers.allSatisfy { $0.body.isEmpty && $0.fields["etag"] == etag })
        }
    }

    @Test func aChangedPhotoIsNotAnsweredWithItsEarlierImage() async throws {
        let fixture = try ServerFixture(photos: 1)
        let photos = fixture.photos
        try await fixture.run { client, _ in
            let id = try await Self.renderedAsset(client)
            let before = try await client.get("/thumbnails/\(id)/grid")
            #expect(try await client.get("/thumbnails/\(id)/grid").body == before.body)
            try photos.addPhoto("photo-0.jpg", width: 300, height: 900)
            let changed = try await eventually {
                let now = try await client.get("/thumbnails/\(id)/grid")
                return now.status == .ok && now.headers[.eTag] != before.headers[.eTag] && now.body != before.body
            }
            #expect(changed)
        }
    }

    @Test func aHitWithoutTheTokenIsRefused() async throws {
        let fixture = try ServerFixture(photos: 1) { $0.token = "s3cret-token" }
        try await fixture.run { client, _ in
            let bearer: HTTPFields = [.authorization: "Bearer s3cret-token"]
            let id = try #require(try await client.allAssets(headers: bearer).first?["id"] as? String)
            #expect(try await client.get("/thumbnails/\(id)/grid", headers: bearer).status == .ok)
            #expect(try await client.get("/thumbnails/\(id)/grid").status == .unauthorized)
            #expect(try await client.get("/thumbnails/\(id)/grid", headers: bearer).status == .ok)
        }
    }
}
