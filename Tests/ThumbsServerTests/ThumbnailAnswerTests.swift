import Foundation
import HTTPTypes
import HummingbirdCore
import HummingbirdTesting
import NIOCore
import Testing
import Thumbs

@testable import ThumbsServer

@Suite("ThumbnailAnswer: one answer for both paths")
struct ThumbnailAnswerTests {
    private static let validators = ThumbnailAnswer.Validators(
        version: "43e96188b8b938a0", tag: "f4dd5d5d05aacdc3", versionInURL: nil, delivery: .highQualityFormat)
    private static let etag = "\"43e96188b8b938a0-f4dd5d5d05aacdc3\""

    private static func names(_ answer: ThumbnailAnswer) -> [String] {
        answer.fields.map(\.name.rawName)
    }

    @Test func validatorsNameTheContentAndTheURLsVersion() {
        #expect(Self.validators.etag == Self.etag && Self.validators.cacheControl == "no-cache")
        let versioned = ThumbnailAnswer.Validators(
            version: "43e96188b8b938a0", tag: "f4dd5d5d05aacdc3", versionInURL: "43e96188b8b938a0",
            delivery: .opportunistic)
        #expect(versioned.etag == Self.etag && versioned.cacheControl == "public, max-age=31536000, immutable")
        let stale = ThumbnailAnswer.Validators(
            version: "43e96188b8b938a0", tag: "f4dd5d5d05aacdc3", versionInURL: "0000000000000000",
            delivery: .highQualityFormat)
        #expect(stale.cacheControl == "no-cache")
    }

    @Test func aCopyNamedInIfNoneMatchIsCurrentUnlessTheRequestIsFast() {
        for current in [[Self.etag], ["W/" + Self.etag], ["*"], ["\"other\", " + Self.etag], ["\"other\"", Self.etag]] {
            #expect(Self.validators.isCurrent(ifNoneMatch: current), "\(current)")
        }
        for stale in [[], ["\"other\""], [String(Self.etag.dropLast())]] {
            #expect(!Self.validators.isCurrent(ifNoneMatch: stale), "\(stale)")
        }
        let fast = ThumbnailAnswer.Validators(
            version: "43e96188b8b938a0", tag: "f4dd5d5d05aacdc3", versionInURL: nil, delivery: .fastFormat)
        #expect(!fast.isCurrent(ifNoneMatch: [Self.etag]))
    }

    @Test func eachAnswerCarriesItsFieldsInOrderAndItsTier() {
        let image = ThumbnailAnswer.image([1, 2, 3], format: .webp, from: .store, validators: Self.validators)
        #expect(image.status == .ok && image.tier == .store)
        #expect(Self.names(image) == ["ETag", "Vary", "Cache-Control", "Content-Type", "Content-Length"])
        #expect(image.fields[.contentType] == "image/webp" && image.fields[.contentLength] == "3")
        #expect(image.body.map { Array(buffer: $0) } == [1, 2, 3])

        let notModified = ThumbnailAnswer.notModified(Self.validators)
        #expect(notModified.status == .notModified && notModified.tier == nil && notModified.body == nil)
        #expect(Self.names(notModified) == ["ETag", "Vary", "Cache-Control"])

        let standIn = ThumbnailAnswer.standIn([1, 2], format: .jpeg)
        #expect(standIn.status == .ok && standIn.tier == .degraded)
        #expect(
            Self.names(standIn) == ["Vary", "Cache-Control", "X-Thumbs-Degraded", "Content-Type", "Content-Length"])
        #expect(standIn.fields[.cacheControl] == "no-store" && standIn.fields[.eTag] == nil)
    }

    @Test func anAnswerIsEncodedAsHTTP1WritesIt() {
        let image = ThumbnailAnswer.image([1, 2, 3], format: .jpeg, from: .memory, validators: Self.validators)
        #expect(
            String(buffer: image.encodedHead())
                == "HTTP/1.1 200 OK\r\nETag: \(Self.etag)\r\nVary: Authorization, Cookie\r\nCache-Control: no-cache\r\n"
                + "Content-Type: image/jpeg\r\nContent-Length: 3\r\n")
        #expect(
            String(buffer: ThumbnailAnswer.notModified(Self.validators).encodedHead())
                == "HTTP/1.1 304 Not Modified\r\nETag: \(Self.etag)\r\nVary: Authorization, Cookie\r\n"
                + "Cache-Control: no-cache\r\n")
    }

    @Test func hummingbirdIsHandedTheSameFields() {
        let image = ThumbnailAnswer.image([1, 2, 3], format: .png, from: .memory, validators: Self.validators)
        let response = image.response
        #expect(response.status == .ok && response.headers == image.fields && response.body.contentLength == 3)
        let notModified = ThumbnailAnswer.notModified(Self.validators).response
        #expect(notModified.status == .notModified && notModified.body.contentLength == 0)
    }

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
