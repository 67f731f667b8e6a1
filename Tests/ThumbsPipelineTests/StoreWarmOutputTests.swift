import Foundation
import Testing
import ThumbsCore
import ThumbsLibrary
import ThumbsPipeline
import ThumbsStore
import ThumbsSupport
import ThumbsTesting

@Suite struct StoreWarmOutputTests {
    let renditions = [
        RenditionSpec(size: PixelSize(width: 256, height: 256), contentMode: .aspectFill),
        RenditionSpec(size: PixelSize(width: 640, height: 640)),
    ]

    private func thumbnails(of asset: Asset, _ fixture: InMemoryFixture) async throws -> [RenditionSpec: Thumbnail] {
        let made = try await fixture.renderer.render(asset.location, specs: renditions, ticket: PriorityTicket(.batch))
        return Dictionary(uniqueKeysWithValues: zip(renditions, made))
    }

    @Test func whatIsWrittenIsCurrentOnceFinished() async throws {
        let fixture = try InMemoryFixture()
        let output = StoreWarmOutput(store: fixture.store, renditions: renditions, writeBatch: 2)
        var assets: [Asset] = []
        for index in 0..<5 { assets.append(try await fixture.photo("p\(index).jpg")) }
        for asset in assets {
            #expect(try await output.state(of: asset) == .missing)
            try await output.write(try await thumbnails(of: asset, fixture), of: asset)
        }
        try await output.finish()
        for asset in assets { #expect(try await output.state(of: asset) == .current) }
        #expect(try fixture.store.statistics().thumbnails == 10)
    }

    @Test func onlyItsOwnRenditionsAreKept() async throws {
        let fixture = try InMemoryFixture()
        let asset = try await fixture.photo("a.jpg")
        let output = StoreWarmOutput(store: fixture.store, renditions: [renditions[0]])
        try await output.write(try await thumbnails(of: asset, fixture), of: asset)
        try await output.finish()
        #expect(try await output.state(of: asset) == .current)
        #expect(try fixture.store.statistics().thumbnails == 1)
    }

    @Test func aRecordedFailureIsKnownUntilTheFileChanges() async throws {
        let fixture = try InMemoryFixture()
        let asset = try await fixture.photo("a.jpg")
        let output = StoreWarmOutput(store: fixture.store, renditions: renditions)
        #expect(try await output.knownFailure(of: asset) == nil)
        try await output.recordFailure(FailureRecord(.truncated("cut short")), of: asset)
        #expect(try await output.knownFailure(of: asset)?.kind == .truncated)
        let changed = try await fixture.photo("a.jpg", length: 100)
        #expect(try await output.knownFailure(of: changed) == nil)
    }

    @Test func aFileTheWalkCouldNotListIsNotRecorded() async throws {
        let fixture = try InMemoryFixture()
        let asset = try await fixture.photo("a.jpg")
        let output = StoreWarmOutput(store: fixture.store, renditions: renditions)
        await output.recordUnlistedFailure(FailureRecord(.emptyFile), of: asset)
        #expect(try await output.knownFailure(of: asset) == nil)
    }

    @Test func aPlaceholderIsKeptOnlyInAMetadataRecord() async throws {
        let fixture = try InMemoryFixture()
        let asset = try await fixture.photo("a.jpg")
        let output = StoreWarmOutput(store: fixture.store, renditions: renditions)
        try await output.write(try await thumbnails(of: asset, fixture), of: asset)
        try await output.finish()
        #expect(try await output.placeholderSource(for: asset) == nil, "no metadata record of the photo")
    }

    @Test func removedAssetsLoseTheirThumbnails() async throws {
        let fixture = try InMemoryFixture()
        let asset = try await fixture.photo("a.jpg")
        let output = StoreWarmOutput(store: fixture.store, renditions: renditions)
        try await output.write(try await thumbnails(of: asset, fixture), of: asset)
        try await output.finish()
        try await output.remove([asset])
        #expect(try await output.state(of: asset) == .missing)
        #expect(try fixture.store.statistics().thumbnails == 0)
    }
}
