import SystemPackage
import Testing
import ThumbsCore
import ThumbsCoreTestSupport
import ThumbsRendering
import ThumbsSupport
import ThumbsTesting

@Suite struct InMemoryRendererTests {
    let folder = TemporaryFolder()
    let spec = RenditionSpec(size: PixelSize(width: 64, height: 64))

    private func location(_ name: String) -> ImageLocation {
        ImageLocation(root: FilePath(folder.path), relativePath: FilePath(name))
    }

    @Test func rendersNameTheirFileAndAreCounted() async throws {
        let renderer = InMemoryRenderer()
        let thumbnails = try await renderer.render(
            location("a.jpg"), specs: [spec, spec], ticket: PriorityTicket(.batch))
        #expect(thumbnails.map(\.pixelSize) == [spec.size, spec.size])
        #expect(thumbnails[0].bytes == Array(location("a.jpg").description.utf8) && renderer.renders == 1)
        renderer.failure = .corrupt("scripted")
        await #expect(throws: ImagingError.corrupt("scripted")) {
            try await renderer.render(location("a.jpg"), specs: [spec], ticket: PriorityTicket(.batch))
        }
    }

    /// A file's type comes from its first bytes, read beneath the root; its header says the
    /// renderer's size.
    @Test func anInspectionReadsTheTypeBeneathTheRoot() async throws {
        try folder.write([0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10], to: "photo.jpg")
        try folder.write(Array("notes".utf8), to: "notes.txt")
        let renderer = InMemoryRenderer(pixelSize: PixelSize(width: 30, height: 20))
        let photo = try await renderer.inspect(location("photo.jpg"))
        #expect(photo.mediaType == .jpeg && photo.properties?.pixelSize == PixelSize(width: 30, height: 20))
        #expect(photo.fingerprint.size == 6)
        let notes = try await renderer.inspect(location("notes.txt"))
        #expect(!notes.mediaType.isAsset && notes.properties == nil)
        await #expect(throws: ImagingError.self) { try await renderer.inspect(location("../outside.jpg")) }
    }

    /// A held render waits for the release, or for its own task's cancellation alone.
    @Test func heldRendersWaitForTheReleaseOrTheirCancellation() async throws {
        let renderer = InMemoryRenderer()
        renderer.holdsRenders = true
        let location = location("a.jpg"), spec = spec
        let cancelled = Task { try await renderer.render(location, specs: [spec], ticket: PriorityTicket(.batch)) }
        let released = Task { try await renderer.render(location, specs: [spec], ticket: PriorityTicket(.batch)) }
        try await eventually { renderer.renders == 2 }
        cancelled.cancel()
        await #expect(throws: CancellationError.self) { try await cancelled.value }
        renderer.release()
        #expect(try await released.value.count == 1)
        #expect(try await renderer.render(location, specs: [spec], ticket: PriorityTicket(.batch)).count == 1)
    }

    @Test func placeholdersNeedNoDecoder() throws {
        let renderer = InMemoryRenderer()
        let thumbnail = Thumbnail(bytes: [1, 2, 3], pixelSize: spec.size, format: .jpeg)
        #expect(try renderer.placeholder(of: thumbnail) == ThumbHash(rgba: [128, 128, 128, 255], width: 1, height: 1))
    }
}
