import ThumbsCore
import ThumbsCoreTestSupport
import ThumbsLibrary
import ThumbsStore
import ThumbsTesting

/// Small libraries written by the tests, read by a renderer that decodes nothing: every photo's
/// header says ``pixelSize``, and no file carries a date but its modification time.
enum LibraryFixtures {
    static let mp4 = SniffedImage.mp4
    static let pixelSize = PixelSize(width: 120, height: 80)

    static func jpeg(length: Int = 64) -> [UInt8] { SniffedImage.jpeg(length: length) }

    static let renderer = InMemoryRenderer(workers: 2, pixelSize: pixelSize)

    static func library(_ folder: TemporaryFolder, store: ThumbnailStore? = nil, includeHidden: Bool = false)
        -> PhotoLibrary
    {
        PhotoLibrary(roots: [folder.path + "/library"], includeHidden: includeHidden, renderer: renderer, store: store)
    }
}
