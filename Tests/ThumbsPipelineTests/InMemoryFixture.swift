import ThumbsCore
import ThumbsCoreTestSupport
import ThumbsLibrary
import ThumbsStore
import ThumbsTesting

/// A folder of photos that are images by their first bytes only, a store, and a renderer that
/// decodes nothing: every photo's header says the renderer's `pixelSize`.
struct InMemoryFixture {
    let folder = TemporaryFolder()
    let renderer = InMemoryRenderer(workers: 2, pixelSize: PixelSize(width: 300, height: 200))
    let store: ThumbnailStore

    init() throws {
        store = try ThumbnailStore(configuration: StoreConfiguration(path: folder.path + "/cache"))
    }

    /// Writes a photo of `length` bytes as library/`name` and returns it as an asset (inspected,
    /// as enumeration would). Another length is another version of the file.
    func photo(_ name: String, length: Int = 64) async throws -> Asset {
        let path = try folder.write(SniffedImage.jpeg(length: length), to: "library/" + name)
        return try await Asset.inspecting(file: path, beneath: [folder.path + "/library"], with: renderer)
    }
}
