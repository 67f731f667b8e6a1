import Foundation
import Testing
import ThumbsCore
import ThumbsCoreTestSupport
@testable import ThumbsLibrary
import ThumbsTestSupport

@Suite("PhotoLibrary: bursts", .enabled(if: SubtypeLibrary.isAvailable, SubtypeLibrary.skipReason))
struct PhotoLibraryBurstsTests {
    let folder = TemporaryFolder()
    typealias L = LibraryFixtures

    /// PhotoKit's rule: a burst is one asset in a fetch, the albums and the moments, unless the
    /// fetch asks for every frame; its bytes are all its frames'.
    @Test func aBurstOfTwelveIsOneAssetUnlessEveryFrameIsAskedFor() async throws {
        try SubtypeLibrary.write(into: folder.path + "/library")
        let library = L.library(folder)
        #expect(try await library.fetchAssets().count == 8)
        #expect(try await library.fetchAssets(options: FetchOptions(includeAllBurstAssets: true)).count == 19)
        let frames = try await library.fetchAssets(withBurstIdentifier: SubtypeLibrary.burstUUID)
        #expect(frames.count == SubtypeLibrary.burstFrames && frames.filter(\.representsBurst).count == 1)
        let bursts = try #require(try await library.albums().first { $0.kind == .smartAlbum(.bursts) })
        #expect(bursts.count(of: .all) == 1)
        #expect(bursts.totalBytes == frames.reduce(0) { $0 + $1.fileSize })
        #expect(try await library.fetchAssets(in: bursts).map(\.relativePath) == [SubtypeLibrary.burstFrame(0)])
        let everyFrame = try await library.fetchAssets(in: bursts, options: FetchOptions(includeAllBurstAssets: true))
        #expect(everyFrame.count == SubtypeLibrary.burstFrames)
        // Batches of frames that all wait for their folder still count what they read.
        var inspected = 0
        for try await batch in library.assets(batchSize: 5) { inspected += batch.inspected }
        let files = FileManager.default.enumerator(atPath: folder.path + "/library")?.allObjects.count ?? 0
        #expect(inspected == files - 3, "every file but the three folders was read")
        var moments: Moments?
        for try await snapshot in library.moments() { moments = snapshot }
        #expect(moments?.assetCount == 8)
    }
}
