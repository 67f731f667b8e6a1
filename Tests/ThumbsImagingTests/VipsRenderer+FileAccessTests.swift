import Foundation
import Glibc
import SystemPackage
import Testing
import ThumbsCore
import ThumbsCoreTestSupport
@testable import ThumbsImaging
import ThumbsRendering
import ThumbsTestSupport
import ThumbsSamples

/// The renderer reads a library's files only as they were walked, beneath their root, and never
/// waits on one that is not a regular file.
@Suite struct VipsRendererFileAccessTests {
    let folder = TemporaryFolder()
    var root: String { folder.path + "/library" }

    init() throws {
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    }

    @Test func aFIFOInAPhotosPlaceDoesNotBlock() throws {
        #expect(mkfifo(root + "/pipe.jpg", 0o644) == 0)
        let error = #expect(throws: ImagingError.self) {
            try VipsRenderer().probe(ImageLocation(root: FilePath(root), relativePath: "pipe.jpg"))
        }
        #expect(error == .unreadable("not a regular file"))
    }

    /// The walk saw a photo; before the render, it became a link to a file outside the library.
    @Test func aPhotoSwappedForALinkAfterTheWalkIsNotRendered() throws {
        try folder.write(try SyntheticImage(width: 300, height: 200).encoded(as: .jpeg), to: "library/photo.jpg")
        try folder.write(try SyntheticImage(width: 640, height: 480).encoded(as: .jpeg), to: "outside/private.jpg")
        let walked = try FileFingerprint(path: root + "/photo.jpg")
        try FileManager.default.removeItem(atPath: root + "/photo.jpg")
        try FileManager.default.createSymbolicLink(
            atPath: root + "/photo.jpg", withDestinationPath: folder.path + "/outside/private.jpg")
        let location = ImageLocation(root: FilePath(root), relativePath: "photo.jpg", expectedFingerprint: walked)
        let spec = RenditionSpec(size: PixelSize(width: 64, height: 64))
        let error = #expect(throws: ImagingError.self) { try VipsRenderer().render(location, specs: [spec]) }
        #expect(error?.kind == .unreadable)
        #expect(throws: ImagingError.self) { try VipsRenderer().embeddedPreview(location) }
        #expect(throws: ImagingError.self) { try location.mappedContents() }
    }
}
