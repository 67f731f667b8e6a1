import Foundation
import Testing
import ThumbsCore
import ThumbsCoreTestSupport
@testable import ThumbsLibrary

@Suite struct CollectionsTests {
    let folder = TemporaryFolder()
    typealias L = LibraryFixtures

    @Test func slowConsumersGetTheNewestSnapshotOnly() async throws {
        for index in 0..<1_500 { try folder.write(L.mp4, to: "library/clip\(index).mp4") }
        let library = L.library(folder)
        var received = 0
        var last = Moments()
        for try await snapshot in library.moments(batchSize: 10) {
            received += 1
            last = snapshot
            // A slow view: busy with the first snapshot for as long as a whole walk of the
            // library takes (however fast this machine, or slow a sanitizer, makes walks).
            if received == 1 { _ = try await library.allAssets() }
        }
        #expect(received < 150, "stale snapshots were dropped (\(received) of 150)")
        #expect(last.assetCount == 1_500)
        #expect(last == Moments(sorting: try await library.allAssets().assets))
    }

    @Test func mergingInAnyOrderEqualsSorting() {
        let assets = (0..<500).map { index in
            Asset(
                root: "/r", relativePath: "a\(index).mp4", mediaType: .mp4,
                fingerprint: FileFingerprint(
                    size: 1, modificationTimeNanoseconds: Int64((index * 7_919) % 500) * 3_600_000_000_000))
        }
        var merged = Moments(timeZone: TimeZone(identifier: "UTC")!)
        for chunk in stride(from: 0, to: assets.count, by: 37) {
            merged.merge(Array(assets[chunk..<min(chunk + 37, assets.count)].shuffled()))
        }
        #expect(merged == Moments(sorting: assets, timeZone: TimeZone(identifier: "UTC")!))
    }
}
