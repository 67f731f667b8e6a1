import Testing
import ThumbsFreedesktop

/// The URIs and names GNOME computes (Gio's `get_uri`, GLib's `filename_to_uri`), checked on
/// names a file manager must percent-encode.
@Suite struct FileURITests {
    @Test(arguments: [
        ("/p/a b.jpg", "file:///p/a%20b.jpg"),
        ("/p/café 日本.jpg", "file:///p/caf%C3%A9%20%E6%97%A5%E6%9C%AC.jpg"),
        ("/p/sp!$&'()*+,;=:@~-_.jpg", "file:///p/sp!$&'()*+,%3B=:@~-_.jpg"),
        ("/p/hash#q?pct%.jpg", "file:///p/hash%23q%3Fpct%25.jpg"),
        ("/p/tab\tline\n.jpg", "file:///p/tab%09line%0A.jpg"),
    ])
    func namesAreEncodedAsTheDesktopEncodesThem(path: String, uri: String) throws {
        let made = try #require(FileURI(path: path))
        #expect(made.string == uri)
        #expect(made.path == Array(path.utf8))
    }

    @Test func bytesThatAreNotUTF8AreEncodedOneByOne() throws {
        let uri = try #require(FileURI(path: Array("/p/bad".utf8) + [0xFF, 0xFE] + Array(".jpg".utf8)))
        #expect(uri.string == "file:///p/bad%FF%FE.jpg")
        #expect(uri.path == Array("/p/bad".utf8) + [0xFF, 0xFE] + Array(".jpg".utf8))
    }

    @Test func theStandardsExampleHasItsName() throws {
        // The example of the Thumbnail Managing Standard, 0.9.
        let uri = try #require(FileURI(path: "/home/jens/photos/me.png"))
        #expect(uri.md5 == "c6ee772d9e49320e97ec29a7eb5b1697")
    }

    @Test func relativePathsAndForeignURIsAreRefused() {
        #expect(FileURI(path: "photos/me.png") == nil)
        #expect(FileURI(path: Array("/p/a".utf8) + [0] + Array("b".utf8)) == nil)
        #expect(FileURI(string: "sftp://host/p/a.jpg") == nil)
        #expect(FileURI(string: "file:///p/../etc/passwd")?.path == nil, "no climbing out of a root")
        #expect(FileURI(string: "file:///p/%2e%2e/etc")?.path == nil)
    }

    @Test func insideAFolderMeansBelowIt() throws {
        let root = try #require(FileURI(path: "/photos/2024"))
        #expect(try #require(FileURI(path: "/photos/2024/a/b.jpg")).isInside(root))
        #expect(!(try #require(FileURI(path: "/photos/2024-old/b.jpg")).isInside(root)))
        #expect(!root.isInside(root))
    }
}
