import SystemPackage
import Testing
import ThumbsSupport

@Suite struct FilePathDisplayTests {
    private func path(_ bytes: [UInt8]) -> FilePath { FilePath(bytes: bytes) }

    @Test func validUTF8IsShownAsItIs() {
        #expect(FilePath("2024/Café 🌅.jpg").displayString == "2024/Café 🌅.jpg")
    }

    @Test func otherBytesAreShownAsHex() {
        #expect(path(Array("caf".utf8) + [0xE9] + Array(".jpg".utf8)).displayString == #"caf\xE9.jpg"#)
        #expect(path([0xFF, 0xFE]).displayString == #"\xFF\xFE"#)
        // A valid sequence after an invalid byte is kept whole.
        #expect(path([0xC3] + Array("é".utf8)).displayString == #"\xC3é"#)
    }

    @Test func differentNamesLookDifferent() {
        #expect(path([0xE9]).displayString != path([0xE8]).displayString)
    }
}
