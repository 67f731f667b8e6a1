import Foundation
import Testing
import ThumbsCore
import ThumbsCoreTestSupport
import ThumbsLibrary
import ThumbsPipeline
import ThumbsSupport

@Suite struct FolderWarmOutputTests {
    let grid = RenditionSpec(size: PixelSize(width: 64, height: 64), contentMode: .aspectFill)
    let preview = RenditionSpec(size: PixelSize(width: 128, height: 128), format: .webp)

    @Test func eachRenditionGoesToItsNamedFileBesideTheFoldersPath() async throws {
        let fixture = try InMemoryFixture()
        let first = TemporaryFolder("thumbs-a"), second = TemporaryFolder("thumbs-b")
        for library in [first, second] {
            try library.write(SniffedImage.jpeg(), to: "DCIM/sub/one.jpg")
        }
        let out = fixture.folder.path + "/out"
        let output = FolderWarmOutput(
            folder: out, libraryFolders: [first.path + "/DCIM", second.path + "/DCIM"],
            renditions: [(name: "grid", spec: grid), (name: "preview", spec: preview)])
        let library = PhotoLibrary(
            roots: [first.path + "/DCIM", second.path + "/DCIM"], renderer: fixture.renderer, store: nil)
        let summary = try await WarmJob(renderer: fixture.renderer, outputs: [output]).run(over: library)
        #expect(summary.rendered == 2 && output.unwritten == 0)
        for name in ["DCIM", "DCIM-2"] {
            #expect(FileManager.default.fileExists(atPath: "\(out)/\(name)/sub/one.jpg.grid.jpg"))
            #expect(FileManager.default.fileExists(atPath: "\(out)/\(name)/sub/one.jpg.preview.webp"))
        }
        let again = try await WarmJob(renderer: fixture.renderer, outputs: [output]).run(over: library)
        #expect(again.rendered == 2 && again.fresh == 0, "a folder keeps no record: every run renders")
    }

    @Test func aFileNamedAloneGoesUnderItsName() async throws {
        let fixture = try InMemoryFixture()
        let path = try fixture.folder.write(SniffedImage.jpeg(), to: "in.jpg")
        let out = fixture.folder.path + "/out"
        let output = FolderWarmOutput(folder: out, libraryFolders: [], renditions: [(name: "grid", spec: grid)])
        let named = try await WarmBatch.inspecting(
            files: [path, fixture.folder.path + "/missing.jpg"], with: fixture.renderer)
        #expect(named.assets.count == 1 && named.failures.count == 1)
        let summary = try await WarmJob(renderer: fixture.renderer, outputs: [output]).run([.batch(named)])
        #expect(summary.rendered == 1 && summary.failed == 1)
        #expect(FileManager.default.fileExists(atPath: out + "/in.jpg.grid.jpg"))
    }

    @Test func aThumbnailThatCannotBeWrittenIsCountedAndTheWarmGoesOn() async throws {
        let fixture = try InMemoryFixture()
        let asset = try await fixture.photo("a.jpg")
        // A file where the output folder should be.
        let blocked = try fixture.folder.write([1], to: "blocked")
        let reported = Locked<[String]>([])
        let output = FolderWarmOutput(folder: blocked, libraryFolders: [], renditions: [(name: "grid", spec: grid)]) {
            stem, _ in reported.withLock { $0.append(stem) }
        }
        let summary = try await WarmJob(renderer: fixture.renderer, outputs: [output]).run([asset])
        #expect(summary.rendered == 1 && output.unwritten == 1)
        #expect(reported.value == [blocked + "/a.jpg"])
    }
}
