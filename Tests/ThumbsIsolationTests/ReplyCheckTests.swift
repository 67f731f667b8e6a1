import SystemPackage
import Testing
import ThumbsImaging
import ThumbsRendering
import ThumbsTestSupport
import ThumbsSamples

@testable import ThumbsIsolation
import ThumbsCore
import ThumbsCoreTestSupport

/// What the renderer accepts of a worker's results: only what the request and the file the
/// renderer itself sniffed allow.
@Suite struct ReplyCheckTests {
    let folder = TemporaryFolder("thumbs-reply-check")

    func sniffed() throws -> (ImageSource, Inspection) {
        try folder.write(SyntheticImage(width: 64, height: 48).encoded(as: .jpeg), to: "a.jpg")
        let location = ImageLocation(root: FilePath(folder.path), relativePath: "a.jpg")
        let source = try ImageSource(
            file: try OpenedFile.open(location), path: "a.jpg", expectedFingerprint: nil)
        let inspection = try VipsRenderer().inspect(location)
        return (source, inspection)
    }

    @Test func anInspectionOfTheFileIsAccepted() throws {
        let (source, inspection) = try sniffed()
        #expect(try ReplyCheck.inspection(inspection, of: source) == inspection)
    }

    @Test(arguments: [
        "another type", "a negative width", "a width past any image", "orientation 300", "no pages",
        "a movie past the file", "a movie at the end of time", "an endless identifier",
        "an endless burst identifier", "an empty burst identifier", "a Live Photo by itself", "a slow-motion still",
    ])
    func anInspectionOutOfRangeIsRefused(lie: String) throws {
        var (source, inspection) = try sniffed()
        var properties = try #require(inspection.properties)
        switch lie {
        case "another type": inspection.mediaType = .png
        case "a negative width": properties.pixelSize = PixelSize(width: -1, height: 48)
        case "a width past any image": properties.pixelSize = PixelSize(width: Int.max, height: 48)
        case "orientation 300": properties.exifOrientation = 300
        case "a movie past the file": properties.embeddedMovie = EmbeddedMovie(offset: 10, length: .max)
        case "a movie at the end of time":
            properties.embeddedMovie = EmbeddedMovie(offset: 0, length: 8, duration: .nan)
        case "an endless identifier": properties.contentIdentifier = String(repeating: "A", count: 10_000)
        case "an endless burst identifier":
            properties.burst = BurstMembership(identifier: String(repeating: "B", count: 10_000))
        case "an empty burst identifier": properties.burst = BurstMembership(identifier: "")
        case "a Live Photo by itself": properties.mediaSubtypes = .photoLive
        case "a slow-motion still": properties.mediaSubtypes = [.photoHDR, .videoHighFrameRate]
        default: properties.pageCount = 0
        }
        inspection.properties = properties
        #expect(throws: ReplyError.self) { try ReplyCheck.inspection(inspection, of: source) }
        _ = source
    }

    @Test func anInspectionOfABurstFrameWithSubtypesIsAccepted() throws {
        var (source, inspection) = try sniffed()
        var properties = try #require(inspection.properties)
        properties.burst = BurstMembership(identifier: "2F0E6A8C-1B3D-4E5F-9A7B-8C6D5E4F3A2B", isCover: true)
        properties.mediaSubtypes = [.photoPanorama, .photoHDR, .photoScreenshot, .photoDepthEffect]
        inspection.properties = properties
        #expect(try ReplyCheck.inspection(inspection, of: source) == inspection)
    }

    @Test func thumbnailsMustBeWhatTheSpecsAskedFor() {
        let spec = RenditionSpec(size: PixelSize(width: 128, height: 128))
        let jpeg = Thumbnail(
            bytes: [0xFF, 0xD8, 0xFF, 0xD9], pixelSize: PixelSize(width: 128, height: 96), format: .jpeg)
        #expect(throws: Never.self) { try ReplyCheck.thumbnails([jpeg], for: [spec]) }
        #expect(throws: ReplyError.self) { try ReplyCheck.thumbnails([jpeg, jpeg], for: [spec]) }
        var wide = jpeg
        wide.pixelSize = PixelSize(width: 129, height: 96)
        #expect(throws: ReplyError.self) { try ReplyCheck.thumbnails([wide], for: [spec]) }
        var png = jpeg
        png.format = .png
        #expect(throws: ReplyError.self) {
            try ReplyCheck.thumbnails([png], for: [RenditionSpec(size: spec.size, format: .png)])
        }
    }

    @Test func aReplyIsBoundedByWhatItAnswers() {
        let spec = RenditionSpec(size: PixelSize(width: 256, height: 256))
        let render = ReplyCheck.largestReply(to: .render(specs: [spec, spec]), pixelLimit: 100_000_000)
        #expect(render < 2 << 20 && render > 2 * 4 * 256 * 256)
        #expect(ReplyCheck.largestReply(to: .inspect, pixelLimit: 100_000_000) == 2 << 20)
    }
}
