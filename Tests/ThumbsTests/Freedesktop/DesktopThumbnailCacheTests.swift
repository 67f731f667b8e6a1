import Foundation
import Testing
import ThumbsImaging
import ThumbsLibrary
import ThumbsPipeline
import ThumbsStore
import ThumbsSupport
import ThumbsTestSupport
import ThumbsSamples

@testable import ThumbsFreedesktop
import ThumbsCore
import ThumbsCoreTestSupport

@Suite struct DesktopThumbnailCacheTests {
    let renditions = [RenditionSpec(size: PixelSize(width: 256, height: 256), contentMode: .aspectFill)]

    /// A library of five photos (one smaller than every flavour) and a truncated one.
    private func makeLibrary(_ fixture: PipelineFixture, folder: String = "library") throws -> String {
        for index in 0..<4 {
            try fixture.folder.write(
                try SyntheticImage(width: 1200 + index, height: 800).encoded(as: .jpeg), to: "\(folder)/p \(index).jpg")
        }
        try fixture.folder.write(
            try SyntheticImage(width: 100, height: 80).encoded(as: .jpeg), to: "\(folder)/small.jpg")
        let whole = try SyntheticImage(width: 900, height: 600).encoded(as: .jpeg)
        // Its first bytes only, long settled: damage with nothing to draw, a failure remembered.
        try FileAge.settle(try fixture.folder.write(Array(whole.prefix(300)), to: "\(folder)/broken.jpg"))
        return fixture.folder.path + "/" + folder
    }

    private func source(_ path: String) throws -> ThumbnailSource {
        var status = stat()
        #expect(stat(path, &status) == 0)
        return ThumbnailSource(
            uri: try #require(FileURI(path: path)), modificationTime: Int64(status.st_mtim.tv_sec),
            fileSize: UInt64(status.st_size))
    }

    @Test func aWarmWritesEveryFlavourFromTheStoresDecode() async throws {
        let fixture = try PipelineFixture()
        let root = try makeLibrary(fixture)
        let cache = DesktopThumbnailCache(folder: fixture.folder.path + "/thumbnails", flavors: [.normal, .xLarge])
        let library = PhotoLibrary(roots: [root], renderer: fixture.renderer, store: fixture.store)
        let job = WarmJob(store: fixture.store, renderer: fixture.renderer, renditions: renditions, outputs: [cache])

        let first = try await job.run(over: library)
        #expect(first.rendered == 5 && first.failuresByKind == [.truncated: 1])
        #expect(fixture.renderer.decodeCount == 6, "one decode per photo for the store and the desktop")
        #expect(try fixture.store.statistics().thumbnails == 5)

        let photo = try source(root + "/p 1.jpg")
        #expect(photo.uri.string == "file://" + root + "/p%201.jpg")
        for (flavor, longest) in [(ThumbnailFlavor.normal, 128), (.xLarge, 512)] {
            let path = cache.path(of: photo.uri, flavor: flavor)
            let bytes = try #require(CacheFile.read(path))
            let fields = try #require(PNGText.fields(of: bytes))
            #expect(fields["Thumb::URI"] == photo.uri.string)
            #expect(fields["Thumb::MTime"] == String(photo.modificationTime))
            #expect(fields["Thumb::Size"] == String(photo.fileSize))
            #expect(fields["Thumb::Mimetype"] == "image/jpeg")
            #expect(fields["Thumb::Image::Width"] == "1201" && fields["Thumb::Image::Height"] == "800")
            #expect(fields["Software"] == "Thumbs \(ThumbsVersion.current)")
            let size = try VipsRenderer().probe(path).pixelSize
            #expect(max(size.width, size.height) == longest)
            var status = stat()
            #expect(stat(path, &status) == 0 && status.st_mode & 0o777 == 0o600)
            #expect(stat(cache.folder + "/" + flavor.folderName, &status) == 0 && status.st_mode & 0o777 == 0o700)
        }
        let small = try source(root + "/small.jpg")
        let smallSize = try VipsRenderer().probe(cache.path(of: small.uri, flavor: .xLarge)).pixelSize
        #expect(smallSize == PixelSize(width: 100, height: 80), "never enlarged")

        let broken = try source(root + "/broken.jpg")
        #expect(cache.state(of: broken) == .failed)
        #expect(
            FileManager.default.fileExists(atPath: cache.desktopFailurePath(of: broken.uri)), "damaged: GNOME's too")

        let second = try await job.run(over: library)
        #expect(second.rendered == 0 && second.fresh == 5 && second.skippedFailures == 1)
        #expect(fixture.renderer.decodeCount == 6, "nothing decoded the second time")

        // A changed file gets new thumbnails; a repaired one loses its failure entries.
        try Data(try SyntheticImage(width: 640, height: 480).encoded(as: .jpeg))
            .write(to: URL(fileURLWithPath: root + "/broken.jpg"))
        utimensat(
            AT_FDCWD, root + "/p 1.jpg",
            [timespec(tv_sec: 1_600_000_000, tv_nsec: 0), timespec(tv_sec: 1_600_000_000, tv_nsec: 0)], 0)
        let third = try await job.run(over: library)
        #expect(third.rendered == 2 && third.failed == 0)
        #expect(cache.state(of: try source(root + "/p 1.jpg")) == .current)
        let repaired = try source(root + "/broken.jpg")
        #expect(cache.state(of: repaired) == .current)
        #expect(!FileManager.default.fileExists(atPath: cache.failurePath(of: repaired.uri)))
        #expect(!FileManager.default.fileExists(atPath: cache.desktopFailurePath(of: repaired.uri)))
    }

    @Test func theDesktopAloneNeedsNoStore() async throws {
        let fixture = try PipelineFixture()
        let root = try makeLibrary(fixture)
        let cache = DesktopThumbnailCache(folder: fixture.folder.path + "/thumbnails")
        let library = PhotoLibrary(roots: [root], renderer: fixture.renderer, store: nil)
        let job = WarmJob(renderer: fixture.renderer, outputs: [cache])
        let first = try await job.run(over: library)
        #expect(first.rendered == 5 && first.failed == 1 && first.placeholders == 0)
        #expect(try fixture.store.statistics().thumbnails == 0)
        let second = try await job.run(over: library)
        #expect(second.fresh == 5 && second.skippedFailures == 1 && second.rendered == 0)
        #expect(fixture.renderer.decodeCount == 6)
    }

    @Test func aCacheWarmedBeforeGetsOnlyTheDesktopsThumbnails() async throws {
        let fixture = try PipelineFixture()
        let root = try makeLibrary(fixture)
        let library = PhotoLibrary(roots: [root], renderer: fixture.renderer, store: fixture.store)
        _ = try await WarmJob(store: fixture.store, renderer: fixture.renderer, renditions: renditions)
            .run(over: library)
        let cache = DesktopThumbnailCache(folder: fixture.folder.path + "/thumbnails")
        let job = WarmJob(store: fixture.store, renderer: fixture.renderer, renditions: renditions, outputs: [cache])
        let summary = try await job.run(over: library)
        // The broken photo is known to the store's failure memo: not tried again, but recorded.
        #expect(summary.rendered == 5 && summary.skippedFailures == 1)
        #expect(cache.state(of: try source(root + "/broken.jpg")) == .failed)
        #expect(try fixture.store.statistics().thumbnails == 5)
    }

    @Test func aDamagedOrForeignThumbnailIsNotCurrent() async throws {
        let fixture = try PipelineFixture()
        let root = try makeLibrary(fixture)
        let cache = DesktopThumbnailCache(folder: fixture.folder.path + "/thumbnails", flavors: [.normal])
        let library = PhotoLibrary(roots: [root], renderer: fixture.renderer, store: nil)
        let job = WarmJob(renderer: fixture.renderer, outputs: [cache])
        _ = try await job.run(over: library)
        let photo = try source(root + "/p 0.jpg")
        let path = cache.path(of: photo.uri, flavor: .normal)
        let bytes = try #require(CacheFile.read(path))
        try Data(bytes.prefix(bytes.count - 20)).write(to: URL(fileURLWithPath: path))
        #expect(cache.state(of: photo) == .missing, "cut short")
        let other = try source(root + "/p 1.jpg")
        try Data(try #require(CacheFile.read(cache.path(of: other.uri, flavor: .normal))))
            .write(to: URL(fileURLWithPath: path))
        #expect(cache.state(of: photo) == .missing, "another file's thumbnail")
        let again = try await job.run(over: library)
        #expect(again.rendered == 1 && cache.state(of: photo) == .current)
    }

    @Test func aFormatThumbsCannotReadGetsNoGNOMEFailureEntry() throws {
        let folder = TemporaryFolder()
        let cache = DesktopThumbnailCache(folder: folder.path + "/thumbnails")
        let path = try folder.write(Array("II*\0".utf8), to: "scan.tif")
        let source = try source(path)
        try cache.writeFailure(of: source, damaged: false)
        #expect(cache.state(of: source) == .failed)
        #expect(!FileManager.default.fileExists(atPath: cache.desktopFailurePath(of: source.uri)))
        let entry = try #require(CacheFile.read(cache.failurePath(of: source.uri)))
        #expect(PNGText.fields(of: entry)?["Thumb::URI"] == source.uri.string)
    }

    @Test func cleanRemovesStaleThumbnailsUnderTheRootsOnly() async throws {
        let fixture = try PipelineFixture()
        let kept = try makeLibrary(fixture, folder: "kept")
        let cleaned = try makeLibrary(fixture, folder: "cleaned")
        let cache = DesktopThumbnailCache(folder: fixture.folder.path + "/thumbnails")
        let library = PhotoLibrary(roots: [kept, cleaned], renderer: fixture.renderer, store: nil)
        _ = try await WarmJob(renderer: fixture.renderer, outputs: [cache]).run(
            over: library)
        let unused = try source(cleaned + "/p 2.jpg")
        let untouched = try source(cleaned + "/p 3.jpg")
        for root in [kept, cleaned] {
            unlink(root + "/p 0.jpg")
            unlink(root + "/broken.jpg")
            utimensat(
                AT_FDCWD, root + "/p 1.jpg",
                [timespec(tv_sec: 1_600_000_000, tv_nsec: 0), timespec(tv_sec: 1_600_000_000, tv_nsec: 0)], 0)
        }
        let old = timespec(tv_sec: Int(Date().timeIntervalSince1970) - 100 * 86_400, tv_nsec: 0)
        for flavor in cache.flavors { utimensat(AT_FDCWD, cache.path(of: unused.uri, flavor: flavor), [old, old], 0) }
        let leftOver = cache.folder + "/normal/0123.png.thumbs.AbCdEf"
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: leftOver))
        utimensat(AT_FDCWD, leftOver, [old, old], 0)

        let summary = cache.clean(roots: [cleaned], unusedFor: .seconds(90 * 86_400))
        #expect(summary.examined == 2 * (5 * 2 + 2))
        #expect(summary.sourceGone == 2 + 2, "p 0 at two sizes; broken's entries in both failure folders")
        #expect(summary.sourceChanged == 2 && summary.unused == 2 && summary.leftOvers == 1)
        #expect(cache.state(of: untouched) == .current)
        #expect(cache.state(of: try source(kept + "/p 2.jpg")) == .current)
        let keptChanged = try #require(FileURI(path: kept + "/p 1.jpg"))
        #expect(
            FileManager.default.fileExists(atPath: cache.path(of: keptChanged, flavor: .normal)), "not under the roots")
    }

    @Test func theFolderFollowsXDGCacheHome() {
        #expect(
            DesktopThumbnailCache.defaultFolder(environment: ["XDG_CACHE_HOME": "/c", "HOME": "/h"]) == "/c/thumbnails")
        #expect(
            DesktopThumbnailCache.defaultFolder(environment: ["XDG_CACHE_HOME": "rel", "HOME": "/h"])
                == "/h/.cache/thumbnails")
        #expect(DesktopThumbnailCache.defaultFolder(environment: ["HOME": "/h"]) == "/h/.cache/thumbnails")
    }
}
