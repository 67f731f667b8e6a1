import Foundation
import Testing
import ThumbsCore
import ThumbsCoreTestSupport
import ThumbsLibrary
import ThumbsPipeline
import ThumbsTesting

@Suite struct WarmBatchTests {
    @Test func theWalksIssuesThatAreFailuresOfAFileAreFailures() async throws {
        let fixture = try InMemoryFixture()
        let outside = TemporaryFolder("thumbs-outside")
        try fixture.folder.write(SniffedImage.jpeg(), to: "library/a.jpg")
        try fixture.folder.write([], to: "library/empty.jpg")
        let secret = try outside.write(SniffedImage.jpeg(), to: "s.jpg")
        try FileManager.default.createSymbolicLink(
            atPath: fixture.folder.path + "/library/link.jpg", withDestinationPath: secret)
        let library = PhotoLibrary(roots: [fixture.folder.path + "/library"], renderer: fixture.renderer, store: nil)
        let batch = WarmBatch(try await library.allAssets())
        #expect(batch.assets.map(\.relativePath) == ["a.jpg"])
        #expect(batch.failures.map(\.path) == [fixture.folder.path + "/library/empty.jpg"])
        #expect(batch.failures.first?.error.kind == .emptyFile && batch.failures.first?.asset != nil)
        #expect(batch.issues.map(\.path) == ["link.jpg"], "a link out of the library is no failure")
    }

    @Test func aFileNamedAloneIsAnAssetBeneathTheFolderItIsIn() async throws {
        let fixture = try InMemoryFixture()
        let photo = try fixture.folder.write(SniffedImage.jpeg(), to: "photos/in.jpg")
        let link = fixture.folder.path + "/named.jpg"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: photo)
        let batch = try await WarmBatch.inspecting(files: [link], with: fixture.renderer)
        let asset = try #require(batch.assets.first)
        #expect(asset.path == URL(fileURLWithPath: photo).resolvingSymlinksInPath().path, "the link resolved")
        #expect(asset.pixelSize == fixture.renderer.pixelSize && batch.failures.isEmpty)
    }
}
