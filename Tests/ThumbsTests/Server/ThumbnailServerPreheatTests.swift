import Foundation
import HTTPTypes
import NIOCore
import Testing
import Thumbs
import ThumbsCoreTestSupport
import ThumbsSamples
import ThumbsTestSupport

@Suite("ThumbnailServer: preheating")
struct ThumbnailServerPreheatTests {
    @Test func preheatingFillsTheCacheAsStartCachingDoes() async throws {
        let fixture = try ServerFixture(photos: 3)
        let root = fixture.root
        let store = fixture.store
        try await fixture.run { client, _ in
            let assets = try await client.allAssets()
            let ids = assets.compactMap { $0["id"] as? String }
            let answer = try await client.preheat(.post, ids + ["0123456789abcdef"], client: "page-1")
            #expect(answer.status == .ok)
            let body = try answer.json()
            #expect(body["preheating"] as? Int == 3 && body["unknown"] as? [String] == ["0123456789abcdef"])
            let spec = RenditionSpec(size: PixelSize(width: 128, height: 128), contentMode: .aspectFill)
            let keys = assets.map {
                ThumbnailKey(
                    assetID: $0["id"] as! String,
                    fingerprint: try! FileFingerprint(path: root + "/" + ($0["name"] as! String)),
                    rendition: spec)
            }
            try await eventually { keys.allSatisfy { (try? store.containsThumbnail(for: $0)) == true } }
            let stopped = try await client.preheat(.delete, ids, client: "page-1")
            #expect(try stopped.json()["preheating"] as? Int == 0)
        }
    }

    @Test func oneClientStoppingLeavesAnothersPreheat() async throws {
        let fixture = try ServerFixture(photos: 2)
        try await fixture.run { client, _ in
            let ids = try await client.allAssets().compactMap { $0["id"] as? String }
            _ = try await client.preheat(.post, ids, client: "a")
            _ = try await client.preheat(.post, [ids[0]], client: "b")
            #expect(try await client.preheat(.delete, ids, client: "a").json()["preheating"] as? Int == 0)
            #expect(try await client.preheat(.post, [], client: "b").json()["preheating"] as? Int == 1)
            let metrics = try await client.get("/metrics").text
            #expect(metrics.contains("thumbs_preheating_assets 1"))
        }
    }

    @Test func badPreheatRequestsAreRefused() async throws {
        let fixture = try ServerFixture(photos: 1) { $0.maxBodyBytes = 1024 }
        try await fixture.run { client, _ in
            let id = try #require(try await client.allAssets().first?["id"] as? String)
            let cases: [(String, HTTPResponse.Status)] = [
                ("not json", .badRequest),
                (#"{"assets": "x", "rendition": "grid"}"#, .badRequest),
                (#"{"assets": ["\#(id)"], "rendition": "huge"}"#, .notFound),
                (
                    #"{"assets": [\#(String(repeating: "\"0123456789abcdef\",", count: 100))"x"], "rendition": "grid"}"#,
                    .contentTooLarge
                ),
            ]
            for (body, status) in cases {
                let response = try await client.execute(
                    uri: "/api/preheat", method: .post, headers: [.contentType: "application/json"],
                    body: ByteBuffer(string: body))
                #expect(response.status == status, "\(body.prefix(40))")
                #expect(try response.json()["error"] is String)
            }
            let badName = try await client.preheat(.post, [id], client: "not a name!")
            #expect(badName.status == .badRequest)
        }
    }

    @Test func aClientPreheatsAtMostItsLimit() async throws {
        let fixture = try ServerFixture(photos: 3) { $0.maxPreheatedAssets = 2 }
        try await fixture.run { client, _ in
            let ids = try await client.allAssets().compactMap { $0["id"] as? String }
            let refused = try await client.preheat(.post, ids, client: "greedy")
            #expect(refused.status == .badRequest)
            #expect(try refused.json()["error"] as? String == "preheat-limit")
            #expect(try await client.preheat(.post, Array(ids.prefix(2)), client: "greedy").status == .ok)
        }
    }
}

extension ServerClient {
    func preheat(_ method: HTTPRequest.Method, _ ids: [String], client name: String) async throws -> ServerResponse {
        let body = try JSONSerialization.data(withJSONObject: ["assets": ids, "rendition": "grid"])
        return try await execute(
            uri: "/api/preheat", method: method,
            headers: [.contentType: "application/json", .init("X-Thumbs-Client")!: name],
            body: ByteBuffer(bytes: body))
    }
}
