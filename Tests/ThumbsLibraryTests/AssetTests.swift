import Foundation
import Testing
import ThumbsCore
import ThumbsCoreTestSupport
@testable import ThumbsLibrary

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
        let path = try folder.write(LibraryFixtures.jpeg(), to: "library/2024/a.jpg")
        let asset = try await Asset.inspecting(file: path, beneath: [root], with: LibraryFixtures.renderer)
        #expect(asset.root == root && asset.relativePath == "2024/a.jpg")
        #expect(asset.id == AssetID.make(root: root, relativePath: "2024/a.jpg"), "the id the walk gives it")
        #expect(asset.mediaType == .jpeg && asset.pixelSize == LibraryFixtures.pixelSize)
    }

    @Test func aNamedFileElsewhereIsAnAssetOfItsFolderALinkResolved() async throws {
        let photo = try folder.write(LibraryFixtures.jpeg(), to: "photos/in.jpg")
        let link = folder.path + "/named.jpg"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: photo)
        let asset = try await Asset.inspecting(
            file: link, beneath: [folder.path + "/library"], with: LibraryFixtures.renderer)
        #expect(asset.root == folder.path + "/photos" && asset.relativePath == "in.jpg")
        await #expect(throws: ImagingError.self, "a file that cannot be read is no asset") {
            _ = try await Asset.inspecting(file: folder.path + "/missing.jpg", with: LibraryFixtures.renderer)
        }
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
