import Foundation
import HTTPTypes
import NIOCore
import Testing
import Thumbs
import ThumbsTestSupport
import ThumbsSamples

@Suite("ThumbnailServer: Live Photos' movies")
struct ThumbnailServerMotionTests {
    private let identifier = "1EA799FF-8384-4BC4-87AA-139A814D9125"

    /// The shared iPhone XR movie is a real Live Photo's (its identifier is this one): the
    /// still is made here. Without ../shared, a generated movie stands in.
    private func addLivePhoto(to fixture: ServerFixture) throws -> [UInt8] {
        try fixture.photos.write(try LivePhotoFiles.iPhoneStill(contentIdentifier: identifier), to: "IMG_3589.JPG")
        let moviePath = fixture.root + "/IMG_3589.MOV"
        if SharedMedia.isPresent {
            try FileManager.default.copyItem(
                atPath: SharedMedia.path("video/iPhone_XR_IMG_3589.mov"), toPath: moviePath)
        } else {
            try LivePhotoFiles.liveMovie(at: moviePath, contentIdentifier: identifier)
        }
        return Array(try Data(contentsOf: URL(fileURLWithPath: moviePath)))
    }

    private func motionURL(of name: String, in assets: [[String: Any]]) throws -> String {
        let asset = try #require(assets.first { $0["name"] as? String == name }, "\(name) is listed")
        #expect(asset["mediaSubtypes"] as? [String] == ["live"])
        let motion = try #require(asset["motion"] as? [String: Any])
        let url = try #require(motion["url"] as? String)
        #expect(url.hasPrefix("api/"), "relative, as the page's own requests, for a proxy mounting it under a path")
        return "/" + url
    }

    @Test(.enabled(if: GeneratedMedia.hasFFmpeg, GeneratedMedia.ffmpegSkipReason))
    func aLivePhotosMovieIsServedWholeAndByRange() async throws {
        let fixture = try ServerFixture(photos: 1)
        let movie = try addLivePhoto(to: fixture)
        try await fixture.run { client, _ in
            let assets = try await client.allAssets()
            #expect(assets.count == 2, "the still and the plain photo; the movie is not listed")
            #expect(!assets.contains { ($0["name"] as? String)?.hasSuffix(".MOV") == true })
            let url = try motionURL(of: "IMG_3589.JPG", in: assets)

            let whole = try await client.get(url)
            #expect(whole.status == .ok)
            #expect(whole.headers[.contentType] == "video/quicktime" && whole.headers[.acceptRanges] == "bytes")
            #expect(Array(buffer: whole.body) == movie, "every chunk, in order")
            let tag = try #require(whole.headers[.eTag])

            let part = try await client.get(url, headers: [.range: "bytes=100-299"])
            #expect(part.status == .partialContent)
            #expect(part.headers[.contentRange] == "bytes 100-299/\(movie.count)")
            #expect(Array(buffer: part.body) == Array(movie[100...299]))
            let tail = try await client.get(url, headers: [.range: "bytes=-10"])
            #expect(Array(buffer: tail.body) == Array(movie.suffix(10)))

            let past = try await client.get(url, headers: [.range: "bytes=\(movie.count)-"])
            #expect(past.status == .rangeNotSatisfiable && past.headers[.contentRange] == "bytes */\(movie.count)")
            #expect(try await client.get(url, headers: [.ifNoneMatch: tag]).status == .notModified)
            let stale = try await client.get(url, headers: [.range: "bytes=0-9", .ifRange: "\"0000000000000000\""])
            #expect(stale.status == .ok && stale.body.readableBytes == movie.count, "another movie's range: all of it")
        }
    }

    @Test(.enabled(if: GeneratedMedia.hasFFmpeg, GeneratedMedia.ffmpegSkipReason))
    func aMotionPhotosMovieIsTheRangeInsideTheStill() async throws {
        let fixture = try ServerFixture(photos: 1)
        let movie = try LivePhotoFiles.movie(in: fixture.folder)
        try fixture.photos.write(
            try LivePhotoFiles.motionPhoto(
                xmp: LivePhotoFiles.motionPhotoXMP(movieLength: movie.count, form: .elements), movie: movie),
            to: "PXL_0001.MP.jpg")
        try await fixture.run { client, _ in
            let assets = try await client.allAssets()
            let url = try motionURL(of: "PXL_0001.MP.jpg", in: assets)
            let whole = try await client.get(url)
            #expect(whole.status == .ok && whole.headers[.contentType] == "video/mp4")
            #expect(Array(buffer: whole.body) == movie)
            let head = try await client.get(url, headers: [.range: "bytes=0-7"])
            #expect(Array(buffer: head.body) == Array(movie.prefix(8)))

            let plain = try #require(assets.first { ($0["name"] as? String)?.hasPrefix("photo-") == true })
            #expect(plain["motion"] == nil && plain["mediaSubtypes"] as? [String] == [])
            let none = try await client.get("/api/assets/\(plain["id"] as! String)/motion")
            let error = try none.json()["error"] as? String
            #expect(none.status == .notFound && error == "no-motion")
            #expect(try await client.get("/api/assets/0123456789abcdef/motion").status == .notFound)
        }
    }
}
