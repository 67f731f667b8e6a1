import FoundationEssentials
import Testing
import ThumbsCore
@testable import ThumbsImaging
import ThumbsRendering
import ThumbsTestSupport

@Suite struct ImageSourceTests {
    @Test(.enabled(if: SharedPhotos.isPresent, SharedPhotos.skipReason))
    func contentDecidesNotTheName() throws {
        let heic = SharedPhotos.root.appendingPathComponent("phone/heic_with_jpg_extension.jpg").path
        let text = SharedPhotos.root.appendingPathComponent("broken/not_an_image.jpg").path
        #expect(try ImageSource(opened: ImageLocation(path: heic)).mediaType == .heif)
        #expect(try ImageSource(opened: ImageLocation(path: text)).mediaType == .unsupported)
    }
}
