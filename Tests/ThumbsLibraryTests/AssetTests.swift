import Foundation
import Testing
import ThumbsCore
import ThumbsCoreTestSupport
import ThumbsImaging
@testable import ThumbsLibrary
import ThumbsStore
import ThumbsSupport
import ThumbsTestSupport
import ThumbsSamples

@Suite struct AssetTests {
    let folder = TemporaryFolder()

    @Test func idsAreStableAndDependOnlyOnRootAndPath() {
        let id = AssetID.make(root: "/photos", relativePath: "2019/a.jpg")
        #expect(id == AssetID.make(root: "/photos", relativePath: "2019/a.jpg"))
        #expect(id.count == 16)
        #expect(id != AssetID.make(root: "/photos", relativePath: "2019/b.jpg"))
        #expect(id != AssetID.make(root: "/photo", relativePath: "s/2019/a.jpg"), "root and path are kept apart")
        // A fixed value: ids must not change between versions, or every cache would go cold.
        #expect(AssetID.make(root: "/photos", relativePath: "a.jpg") == "b0368988533d1849")
    }

    @Test func aNamedFileBeneathARootIsThatRootsAsset() async throws {
        let root = folder.path + "/library"
        let path = try folder.write(try LibraryFixtures.jpeg(120, 80), to: "library/2024/a.jpg")
        let asset = try await Asset.inspecting(file: path, beneath: [root], with: LibraryFixtures.renderer)
        #expect(asset.root == root && asset.relativePath == "2024/a.jpg")
        #expect(asset.id == AssetID.make(root: root, relativePath: "2024/a.jpg"), "the id the walk gives it")
        #expect(asset.mediaType == .jpeg && asset.pixelSize == PixelSize(width: 120, height: 80))
    }

    @Test func aNamedFileElsewhereIsAnAssetOfItsFolderALinkResolved() async throws {
        let photo = try folder.write(try LibraryFixtures.jpeg(), to: "photos/in.jpg")
        let link = folder.path + "/named.jpg"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: photo)
        let asset = try await Asset.inspecting(
            file: link, beneath: [folder.path + "/library"], with: LibraryFixtures.renderer)
        #expect(asset.root == folder.path + "/photos" && asset.relativePath == "in.jpg")
        await #expect(throws: ImagingError.self, "a file that cannot be read is no asset") {
            _ = try await Asset.inspecting(file: folder.path + "/missing.jpg", with: LibraryFixtures.renderer)
        }
    }

    @Test func exifDateDecidesTheDayWhereThePhotoWasTaken() throws {
        let renderer = VipsRenderer()
        func asset(_ date: String, offset: String?) throws -> Asset {
            var exif = ["exif-ifd2-DateTimeOriginal": date]
            if let offset { exif["exif-ifd2-OffsetTimeOriginal"] = offset }
            let path = try folder.write(
                try SyntheticImage(width: 64, height: 48, exif: exif).encoded(as: .jpeg),
                to: "\(UUID().uuidString).jpg")
            let properties = try renderer.probe(path)
            return Asset(
                root: folder.path, relativePath: URL(fileURLWithPath: path).lastPathComponent,
                mediaType: .jpeg, fingerprint: properties.fingerprint, properties: properties)
        }
        let lateInTokyo = try asset("2024:03:09 23:30:00", offset: "+09:00")
        let earlyNextDayInTokyo = try asset("2024:03:10 00:30:00", offset: "+09:00")
        let lateInCalifornia = try asset("2024:03:09 23:30:00", offset: "-08:00")
        #expect(lateInTokyo.properties?.captureDate?.description == "2024-03-09T23:30:00+09:00")
        #expect(lateInTokyo.day() == Day(year: 2024, month: 3, day: 9))
        #expect(earlyNextDayInTokyo.day() == Day(year: 2024, month: 3, day: 10))
        // Already the 10th in UTC, but taken on the evening of the 9th where it was taken.
        #expect(lateInCalifornia.day(in: TimeZone(identifier: "UTC")!) == Day(year: 2024, month: 3, day: 9))
        #expect(lateInCalifornia.date.timeIntervalSince1970 == 1_710_055_800)
    }

    @Test func withoutExifTheModificationDayCounts() {
        let asset = Asset(
            root: "/r", relativePath: "a.mp4", mediaType: .mp4,
            fingerprint: FileFingerprint(size: 1, modificationTimeNanoseconds: 1_710_028_800 * 1_000_000_000))
        // 2024-03-10 00:00 UTC is still the 9th in New York.
        #expect(asset.day(in: TimeZone(identifier: "UTC")!) == Day(year: 2024, month: 3, day: 10))
        #expect(asset.day(in: TimeZone(identifier: "America/New_York")!) == Day(year: 2024, month: 3, day: 9))
        #expect(asset.folder == "" && asset.isVideo)
    }
}
