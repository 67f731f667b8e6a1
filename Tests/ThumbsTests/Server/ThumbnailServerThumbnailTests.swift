import Foundation
import HTTPTypes
import NIOCore
import Testing
import Thumbs
import ThumbsCoreTestSupport
import ThumbsSamples
import ThumbsTestSupport

@Suite("ThumbnailServer: thumbnails")
struct ThumbnailServerThumbnailTests {
    @Test func aThumbnailCarriesItsTypeLengthAndValidators() async throws {
        let fixture = try ServerFixture(photos: 1)
        try await fixture.run { client, _ in
            let asset = try #require(try await client.allAssets().first)
            let id = try #require(asset["id"] as? String), version = try #require(asset["version"] as? String)
            let response = try await client.get("/thumbnails/\(id)/grid")
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "image/jpeg")
            #expect(response.headers[.contentLength] == String(response.body.readableBytes))
            #expect(Array(response.body.readableBytesView.prefix(2)) == [0xFF, 0xD8])
            #expect(response.headers[.cacheControl] == "no-cache")
            let etag = try #require(response.headers[.eTag])

            let versioned = try await client.get("/thumbnails/\(id)/grid?v=\(version)")
            #expect(versioned.headers[.cacheControl] == "public, max-age=31536000, immutable")
            #expect(versioned.headers[.eTag] == etag && versioned.body == response.body)
            let stale = try await client.get("/thumbnails/\(id)/grid?v=0000000000000000")
            #expect(stale.headers[.cacheControl] == "no-cache")

            let revalidated = try await client.get("/thumbnails/\(id)/grid", headers: [.ifNoneMatch: etag])
            #expect(revalidated.status == .notModified && revalidated.body.readableBytes == 0)
            let changedTag = try await client.get("/thumbnails/\(id)/grid", headers: [.ifNoneMatch: "\"other\""])
            #expect(changedTag.status == .ok)

            let head = try await client.execute(uri: "/thumbnails/\(id)/grid", method: .head)
            #expect(head.status == .ok && head.body.readableBytes == 0)
            #expect(head.headers[.contentLength] == String(response.body.readableBytes))
            #expect(head.headers[.eTag] == etag)

            let large = try await client.get("/thumbnails/\(id)/large")
            #expect(large.status == .ok && large.headers[.eTag] != etag)
        }
    }

    @Test func aFitRenditionIsNeverAnsweredWithALargerOne() async throws {
        let fixture = try ServerFixture(photos: 1)
        try await fixture.run { client, _ in
            let id = try #require(try await client.allAssets().first?["id"] as? String)
            // The large fit rendition cached first: a fit request could be served from it.
            #expect(try await client.get("/thumbnails/\(id)/large").status == .ok)
            for delivery in ["final", "opportunistic", "fast", "highQualityFormat", "fastFormat"] {
                let medium = try await client.get("/thumbnails/\(id)/medium?delivery=\(delivery)")
                let image = try #require(try MultipartParts.images(in: medium).last)
                #expect(try DecodedPixels(image).size == PixelSize(width: 256, height: 192), "\(delivery)")
            }
        }
    }

    @Test func unknownAndMalformedNamesGetACleanStatus() async throws {
        let fixture = try ServerFixture(photos: 1)
        try await fixture.run { client, _ in
            let id = try #require(try await client.allAssets().first?["id"] as? String)
            let cases: [(String, HTTPResponse.Status)] = [
                ("/thumbnails/0123456789abcdef/grid", .notFound),
                ("/thumbnails/\(id)/huge", .notFound),
                ("/thumbnails/NOT-AN-ID/grid", .badRequest),
                ("/thumbnails/..%2F..%2Fetc%2Fpasswd/grid", .badRequest),
                ("/thumbnails/%2e%2e/grid", .badRequest),
                ("/thumbnails/\(id)/grid?delivery=sometimes", .badRequest),
                ("/thumbnails/\(id)", .notFound),
                ("/etc/passwd", .notFound),
            ]
            for (uri, status) in cases {
                let response = try await client.get(uri)
                #expect(response.status == status, "\(uri)")
                #expect(try response.json()["error"] is String, "\(uri)")
                #expect(!response.text.contains("root:"), "\(uri)")
            }
        }
    }

    @Test func opportunisticDeliverySendsTheStandInThenTheFinal() async throws {
        let fixture = try ServerFixture(photos: 0)
        try fixture.photos.addPhotoWithPreview("with-preview.jpg")
        try await fixture.run { client, _ in
            let id = try #require(try await client.allAssets().first?["id"] as? String)
            let response = try await client.get("/thumbnails/\(id)/large?delivery=opportunistic")
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "multipart/x-mixed-replace; boundary=thumbs-image")
            let parts = try MultipartParts(Array(response.body.readableBytesView))
            #expect(parts.images.count == 2)
            #expect(parts.closed)
            let sizes = try parts.images.map { try DecodedPixels($0).size }
            #expect(sizes.first?.width == 160)
            #expect(sizes.last == PixelSize(width: 512, height: 384))

            // Cached now: one part, the final.
            let again = try MultipartParts(
                Array(try await client.get("/thumbnails/\(id)/large?delivery=opportunistic").body.readableBytesView))
            #expect(again.images.count == 1 && again.closed)
        }
    }

    /// A video is an asset like a photo: listed as one, its poster frame served, its first
    /// keyframe the stand-in of opportunistic delivery. The clip turns 90° in its display
    /// matrix: stored 640 × 360, shown 360 × 640.
    @Test(.enabled(if: GeneratedMedia.hasFFmpeg, GeneratedMedia.ffmpegSkipReason))
    func aVideoIsServedFromItsPosterFrame() async throws {
        let fixture = try ServerFixture(photos: 0)
        let plain = fixture.folder.path + "/plain.mp4"
        try GeneratedMedia.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=640x360:rate=25:duration=3", plain])
        try GeneratedMedia.ffmpeg([
            "-i", plain, "-c", "copy", "-metadata:s:v:0", "rotate=90", fixture.root + "/clip.mp4",
        ])
        try await fixture.run { client, _ in
            let asset = try #require(try await client.allAssets().first)
            #expect(asset["mediaType"] as? String == "mp4")
            let id = try #require(asset["id"] as? String)
            let response = try await client.get("/thumbnails/\(id)/large?delivery=opportunistic")
            #expect(response.status == .ok)
            let parts = try MultipartParts(Array(response.body.readableBytesView))
            #expect(parts.images.count == 2 && parts.closed)
            let sizes = try parts.images.map { try DecodedPixels($0).size }
            #expect(sizes.allSatisfy { $0.height > $0.width }, "upright: \(sizes)")
            #expect(sizes.last == PixelSize(width: 288, height: 512))
            let final = try await client.get("/thumbnails/\(id)/large")
            #expect(final.headers[.contentType] == "image/jpeg")
            #expect(try DecodedPixels(Array(final.body.readableBytesView)).size == PixelSize(width: 288, height: 512))
        }
    }

    @Test func fastDeliveryAnswersTheStandInAtOnce() async throws {
        let fixture = try ServerFixture(photos: 0)
        try fixture.photos.addPhotoWithPreview("with-preview.jpg")
        try await fixture.run { client, _ in
            let id = try #require(try await client.allAssets().first?["id"] as? String)
            let response = try await client.get("/thumbnails/\(id)/large?delivery=fast")
            #expect(response.status == .ok)
            #expect(response.headers[.init("X-Thumbs-Degraded")!] == "1")
            #expect(response.headers[.cacheControl] == "no-store" && response.headers[.eTag] == nil)
            #expect(try DecodedPixels(Array(response.body.readableBytesView)).width == 160)
        }
    }

    /// A clip cut in its first few hundred bytes (a download cut short): listed, answered 422
    /// with its kind in every delivery mode, and the server goes on serving.
    @Test(.enabled(if: GeneratedMedia.hasFFmpeg, GeneratedMedia.ffmpegSkipReason))
    func aClipCutShortAnswers422AndTheServerGoesOn() async throws {
        let fixture = try ServerFixture(photos: 1)
        let whole = fixture.folder.path + "/whole.mp4"
        try GeneratedMedia.ffmpeg([
            "-f", "lavfi", "-i", "testsrc=size=320x240:rate=25,trim=duration=1", "-c:v", "libx264",
            "-movflags", "+faststart", whole,
        ])
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: whole)))
        try fixture.photos.write(Array(bytes.prefix(400)), to: "cut.mp4")
        try await fixture.run { client, _ in
            let cut = try #require(try await client.allAssets().first { $0["name"] as? String == "cut.mp4" })
            let id = try #require(cut["id"] as? String)
            for delivery in ["final", "opportunistic", "fast"] {
                let answer = try await client.get("/thumbnails/\(id)/grid?delivery=\(delivery)")
                #expect(answer.status == .unprocessableContent, "\(delivery)")
                #expect(try answer.json()["error"] as? String == "corrupt", "\(delivery)")
            }
            let photo = try #require(try await client.allAssets().first { $0["name"] as? String == "photo-0.jpg" })
            #expect(try await client.get("/thumbnails/\(try #require(photo["id"] as? String))/grid").status == .ok)
            #expect(try await client.get("/healthz").status == .ok)
        }
    }

    @Test func aBrokenPhotoAnswers422OnceThenFromTheFailureMemo() async throws {
        let fixture = try ServerFixture(photos: 1, broken: true)
        let root = fixture.root
        try await fixture.run { client, _ in
            let broken = try #require(try await client.allAssets().first { $0["name"] as? String == "broken.jpg" })
            let id = try #require(broken["id"] as? String)
            let first = try await client.get("/thumbnails/\(id)/grid")
            #expect(first.status == .unprocessableContent)
            #expect(try first.json()["error"] as? String == "truncated")
            #expect(!first.text.contains(root))
            let second = try await client.get("/thumbnails/\(id)/grid?delivery=opportunistic")
            #expect(second.status == .unprocessableContent)
            let metrics = try await client.get("/metrics").text
            // Rendered once: the second answer came from the memo, not from a decode.
            #expect(metrics.contains(#"thumbs_thumbnails_total{tier="rendered"} 0"#))
            #expect(metrics.contains(#"thumbs_thumbnails_total{tier="failed"} 2"#))
        }
    }

    @Test func metricsCountRequestsAndTiers() async throws {
        let fixture = try ServerFixture(photos: 1)
        try await fixture.run { client, _ in
            let id = try #require(try await client.allAssets().first?["id"] as? String)
            _ = try await client.get("/thumbnails/\(id)/grid")
            _ = try await client.get("/thumbnails/\(id)/grid")
            _ = try await client.get("/thumbnails/0123456789abcdef/grid")
            let response = try await client.get("/metrics")
            #expect(response.headers[.contentType]?.hasPrefix("text/plain; version=0.0.4") == true)
            let text = response.text
            #expect(text.contains(#"thumbs_thumbnails_total{tier="rendered"} 1"#))
            #expect(text.contains(#"thumbs_thumbnails_total{tier="memory"} 1"#))
            #expect(text.contains(#"thumbs_requests_total{route="thumbnail",status="404"} 1"#))
            #expect(text.contains("thumbs_request_duration_seconds_bucket"))
            #expect(text.contains("thumbs_renders_in_flight 0"))
        }
    }
}

extension MultipartParts {
    /// The images of an answer, multipart or not.
    static func images(in response: ServerResponse) throws -> [[UInt8]] {
        let body = Array(response.body.readableBytesView)
        return response.headers[.contentType]?.hasPrefix("multipart/") == true
            ? try MultipartParts(body).images : [body]
    }
}

/// The parts of a `multipart/x-mixed-replace` body as the server writes it: a part with a
/// `Content-Length` is that long, one without ends at the next delimiter.
struct MultipartParts {
    var images: [[UInt8]] = []
    var closed = false

    init(_ body: [UInt8]) throws {
        var rest = body[...]
        let opening = Array("--thumbs-image\r\n".utf8)
        let closing = Array("\r\n--thumbs-image--\r\n".utf8), next = Array("\r\n--thumbs-image\r\n".utf8)
        guard rest.starts(with: opening) else { throw POSIXError(.EBADMSG) }
        rest = rest.dropFirst(opening.count)
        while !rest.isEmpty {
            guard let headEnd = rest.firstRange(of: Array("\r\n\r\n".utf8)) else { throw POSIXError(.EBADMSG) }
            let head = String(decoding: rest[..<headEnd.lowerBound], as: UTF8.self)
            let start = headEnd.upperBound
            let end: Int
            if let line = head.split(separator: "\r\n").first(where: { $0.hasPrefix("Content-Length: ") }) {
                guard let length = Int(line.dropFirst("Content-Length: ".count)) else { throw POSIXError(.EBADMSG) }
                end = start + length
            } else {
                guard let delimiter = rest[start...].firstRange(of: Array("\r\n--thumbs-image".utf8)) else {
                    throw POSIXError(.EBADMSG)
                }
                end = delimiter.lowerBound
            }
            images.append(Array(rest[start..<end]))
            rest = rest[end...]
            if rest.starts(with: closing) {
                closed = true
                return
            }
            guard rest.starts(with: next) else { throw POSIXError(.EBADMSG) }
            rest = rest.dropFirst(next.count)
        }
    }
}
