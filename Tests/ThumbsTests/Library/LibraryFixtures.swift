import Foundation
import ThumbsCoreTestSupport
import ThumbsImaging
@testable import ThumbsLibrary
import ThumbsRendering
import ThumbsStore
import ThumbsSupport
import ThumbsTestSupport
import ThumbsSamples

/// Small libraries written by the tests.
enum LibraryFixtures {
    /// The first bytes of an MP4 file: enough for content sniffing, nothing to decode.
    static let mp4: [UInt8] =
        [0, 0, 0, 20] + Array("ftypisom\0\0\u{2}\0isommp41".utf8) + Array(repeating: 0, count: 64)

    static func jpeg(_ width: Int = 120, _ height: Int = 80, date: String? = nil) throws -> [UInt8] {
        try SyntheticImage(
            width: width, height: height,
            exif: date.map { ["exif-ifd2-DateTimeOriginal": $0] } ?? [:]
        ).encoded(as: .jpeg)
    }

    static let renderer = ThumbnailRenderer(configuration: ImagingConfiguration(workers: 2))

    static func library(_ folder: TemporaryFolder, store: ThumbnailStore? = nil, includeHidden: Bool = false)
        -> PhotoLibrary
    {
        PhotoLibrary(roots: [folder.path + "/library"], includeHidden: includeHidden, renderer: renderer, store: store)
    }
}
