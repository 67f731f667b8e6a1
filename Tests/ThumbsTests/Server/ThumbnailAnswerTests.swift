import Foundation
import HTTPTypes
import NIOCore
import Testing
import Thumbs

/// The two paths a thumbnail request can take (memory on the event loop, the route) answer alike,
/// over a real socket against a server that renders.
@Suite("ThumbnailAnswer: one answer for both paths")
struct ThumbnailAnswerTests {
    /// A body as the JSON object it is, or as its bytes when it is none.
    private static func json(_ body: [UInt8]) -> [String: String] {
        (try? JSONSerialization.jsonObject(with: Data(body)) as? [String: String]) ?? ["bytes": "\(body)"]
    }

    /// `request`'s answer from each path: first on a connection of its own, where memory answers
    /// it, and behind a request that Hummingbird answers (`/healthz`), where the route does.
    private static func fromBothPaths(
        _ request: String, port: Int, isHead: Bool = false
    ) async throws -> (fast: RawAnswer, routed: RawAnswer) {
        let health = "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"
        let last = "GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
        let fast = RawAnswer.split(
            try await RawConnection(port: port).exchange([Array((request + last).utf8)]).bytes,
            bodiless: isHead ? [0] : [])
        let routed = RawAnswer.split(
            try await RawConnection(port: port).exchange([Array((health + request + last).utf8)]).bytes,
            bodiless: isHead ? [1] : [])
        #expect(fast.count == 2 && routed.count == 3)
        return (try #require(fast.first), try #require(routed.dropFirst().first))
    }

    @Test func bothPathsGiveAHitA304AndAHeadTheSameHead() async throws {
        let fixture = try ServerFixture(photos: 1)
        try await fixture.run { client, port in
            let asset = try #require(try await client.allAssets().first)
            let id = try #require(asset["id"] as? String), version = try #require(asset["version"] as? String)
            let rendered = try await client.get("/thumbnails/\(id)/grid")
            let etag = try #require(rendered.headers[.eTag])
            let cases: [(request: String, status: Int, isHead: Bool)] = [
                ("GET /thumbnails/\(id)/grid HTTP/1.1\r\nHost: x\r\n\r\n", 200, false),
                ("GET /thumbnails/\(id)/grid?v=\(version) HTTP/1.1\r\nHost: x\r\n\r\n", 200, false),
                ("GET /thumbnails/\(id)/grid HTTP/1.1\r\nHost: x\r\nIf-None-Match: \(etag)\r\n\r\n", 304, false),
                ("HEAD /thumbnails/\(id)/grid HTTP/1.1\r\nHost: x\r\n\r\n", 200, true),
            ]
            for (request, status, isHead) in cases {
                let (fast, routed) = try await Self.fromBothPaths(request, port: port, isHead: isHead)
                #expect(fast.status == status, "\(request)")
                #expect(fast.head == routed.head, "\(request)")
                #expect(fast.body == routed.body, "\(request)")
                #expect(fast.body.count == (status == 200 && !isHead ? rendered.body.readableBytes : 0))
            }
        }
    }

    @Test func bothPathsRefuseAMissingOrWrongTokenAlike() async throws {
        let fixture = try ServerFixture(photos: 1) { $0.token = "s3cret-token" }
        try await fixture.run { client, port in
            let bearer: HTTPFields = [.authorization: "Bearer s3cret-token"]
            let id = try #require(try await client.allAssets(headers: bearer).first?["id"] as? String)
            #expect(try await client.get("/thumbnails/\(id)/grid", headers: bearer).status == .ok)
            let cases: [(authorization: String, status: Int)] = [
                ("Authorization: Bearer s3cret-token\r\n", 200), ("", 401),
                ("Authorization: Bearer wrong-token!\r\n", 401), ("Cookie: thumbs_token=guess\r\n", 401),
            ]
            for (authorization, status) in cases {
                let request = "GET /thumbnails/\(id)/grid HTTP/1.1\r\nHost: x\r\n\(authorization)\r\n"
                let (fast, routed) = try await Self.fromBothPaths(request, port: port)
                #expect(fast.status == status, "\(authorization)")
                #expect(fast.head == routed.head, "\(authorization)")
                // A 401's JSON is the same object, its keys in either order.
                #expect(Self.json(fast.body) == Self.json(routed.body), "\(authorization)")
            }
        }
    }
}
