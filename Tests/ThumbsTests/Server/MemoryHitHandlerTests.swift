import Foundation
import HTTPTypes
import Testing
import Thumbs
import ThumbsCoreTestSupport
import ThumbsTestSupport

@Suite("MemoryHitHandler: hits answered on the event loop")
struct MemoryHitHandlerTests {
    /// The id of the fixture's first asset, its grid rendition rendered (so in memory).
    private static func renderedAsset(_ client: ServerClient) async throws -> String {
        let id = try #require(try await client.allAssets().first?["id"] as? String)
        #expect(try await client.get("/thumbnails/\(id)/grid").status == .ok)
        return id
    }

    @Test func aMemoryHitAnswersWhatTheRouteAnswers() async throws {
        let fixture = try ServerFixture(photos: 1)
        try await fixture.run { client, port in
            let id = try await Self.renderedAsset(client)
            let request = "GET /thumbnails/\(id)/grid HTTP/1.1\r\nHost: x\r\n"
            // Behind a request still with Hummingbird, the same request goes to the route.
            let routed = try await RawConnection(port: port).exchange([
                Array(("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n" + request + "Connection: close\r\n\r\n").utf8)
            ]).bytes
            let fromMemory = try await RawConnection(port: port).exchange([
                Array((request + "Connection: close\r\n\r\n").utf8)
            ]).bytes
            let routedAnswer = try #require(RawAnswer.split(routed).last)
            let memoryAnswer = try #require(RawAnswer.split(fromMemory).first)
            #expect(routedAnswer.status == 200 && memoryAnswer.status == 200)
            // Only the answer here says it closes; the route closes without saying so.
            #expect(memoryAnswer.fields.filter { $0.key != "connection" } == routedAnswer.fields)
            #expect(memoryAnswer.body == routedAnswer.body && memoryAnswer.body.starts(with: [0xFF, 0xD8]))
            let metrics = try await client.get("/metrics").text
            #expect(metrics.contains(#"thumbs_thumbnails_total{tier="memory"} 2"#))
            #expect(metrics.contains(#"thumbs_requests_total{route="thumbnail",status="200"} 3"#))
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

    @Test func revalidationsAndHeadsAreAnsweredFromMemory() async throws {
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
            #expect(answers.last?.fields["connection"] == "close")
        }
    }

    @Test func aChangedPhotoIsNotAnsweredWithItsEarlierImage() async throws {
        let fixture = try ServerFixture(photos: 1)
        let photos = fixture.photos
        try await fixture.run { client, _ in
            let id = try await Self.renderedAsset(client)
            // Answered from memory twice: the second from the answer kept ready.
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

    @Test func aConnectionAnsweredFromMemoryIsNotTakenForIdle() async throws {
        let fixture = try ServerFixture(photos: 1) {
            $0.idleTimeout = 3
            $0.requestHeadTimeout = 4
        }
        try await fixture.run { client, port in
            let id = try await Self.renderedAsset(client)
            let hit = Array("GET /thumbnails/\(id)/grid HTTP/1.1\r\nHost: x\r\n\r\n".utf8)
            let last = Array("GET /healthz HTTP/1.1\r\nConnection: close\r\n\r\n".utf8)
            // Hits every 0.6 s for 6 s, longer than either timeout: each one keeps it open. The
            // margin of 2.4 s under the idle timeout holds on a machine busy with other tests
            // (under AddressSanitizer too, where the first render alone can take a second).
            let answer = try await RawConnection(port: port).exchange(
                Array(repeating: hit, count: 10) + [last], pause: .milliseconds(600), timeout: 30)
            #expect(RawAnswer.split(answer.bytes).map(\.status) == Array(repeating: 200, count: 11))
            // A body that stops arriving is dropped after the idle timeout.
            let stalled = try await RawConnection(port: port).exchange(
                [Array("POST /api/preheat HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{\"as".utf8)], timeout: 10)
            #expect(stalled.closed && stalled.response.isEmpty)
        }
    }
}
