import Testing
import ThumbsCore
import ThumbsOneFile

/// The thumbnailer interface's INPUT and size, as `thumbs thumbnail` and `thumbs-thumbnailer`
/// read them.
@Suite struct DesktopThumbnailerTests {
    @Test func aPathIsItself() throws {
        #expect(try DesktopThumbnailer.path(of: "/home/me/a b.jpg") == "/home/me/a b.jpg")
        #expect(try DesktopThumbnailer.path(of: "relative.jpg") == "relative.jpg")
    }

    /// Percent-escapes are bytes of UTF-8; the host is empty or this machine.
    @Test func aFileURIGivesItsPath() throws {
        #expect(try DesktopThumbnailer.path(of: "file:///home/me/a%20b.jpg") == "/home/me/a b.jpg")
        #expect(try DesktopThumbnailer.path(of: "FILE://localhost/%C3%A9t%C3%A9.heic") == "/été.heic")
    }

    @Test(arguments: [
        "http://example.com/a.jpg", "file://elsewhere/a.jpg", "file:///a%2", "file:///a%zz", "file:///%FF",
        "file:///a%00b",
    ])
    func otherInputsAreRefused(input: String) {
        #expect(throws: DesktopThumbnailer.UnreadableInput.self) { try DesktopThumbnailer.path(of: input) }
    }

    @Test func theRenditionIsAPNGFittedInTheSize() {
        let spec = DesktopThumbnailer.spec(size: 256)
        #expect(
            spec.size == PixelSize(width: 256, height: 256) && spec.contentMode == .aspectFit && spec.format == .png)
        #expect(DesktopThumbnailer.sizes == 1...RenditionSpec.maximumDimension)
    }
}
