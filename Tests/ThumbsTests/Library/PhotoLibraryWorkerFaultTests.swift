import Foundation
import SystemPackage
import Testing
import ThumbsCore
import ThumbsCoreTestSupport
import ThumbsImaging
import ThumbsIsolation
import ThumbsLibrary
import ThumbsRendering
import ThumbsStore
import ThumbsTestSupport
import ThumbsSamples

/// A file whose header kills the render worker that reads it (`thumbs-hostile-worker`, which
/// faults for real on that file's inspection): the walk reports it, remembers it, and the next
/// walk reads it no more; every other file is an asset.
@Suite struct PhotoLibraryWorkerFaultTests {
    let folder = TemporaryFolder("thumbs-library-fault")

    @Test func aHeaderThatKillsAWorkerIsRememberedAndNotReadAgain() async throws {
        let photo = try SyntheticImage(width: 320, height: 240).encoded(as: .jpeg)
        try folder.write(photo, to: "library/fault-in-the-header.jpg")
        try folder.write(photo, to: "library/photo.jpg")
        let program = try #require(IsolatedThumbnailRenderer.defaultWorkerExecutable)
            .removingLastComponent().appending("thumbs-hostile-worker")
        let renderer = try IsolatedThumbnailRenderer(
            configuration: ImagingConfiguration(workers: 1), workerExecutable: program)
        let store = try ThumbnailStore(configuration: StoreConfiguration(path: folder.path + "/cache"))
        let library = PhotoLibrary(roots: [folder.path + "/library"], renderer: renderer, store: store)

        let first = try await library.allAssets()
        #expect(first.assets.map(\.relativePath) == ["photo.jpg"])
        #expect(first.issues.map(\.description) == ["fault-in-the-header.jpg: \(ImagingError.crashed)"])
        let worker = renderer.workerProcessIDs

        let second = try await PhotoLibrary(roots: [folder.path + "/library"], renderer: renderer, store: store)
            .allAssets()
        #expect(second.issues.map(\.description) == first.issues.map(\.description))
        #expect(second.inspected == 0, "the file that killed a worker is not read again")
        #expect(renderer.workerProcessIDs == worker)
    }
}
