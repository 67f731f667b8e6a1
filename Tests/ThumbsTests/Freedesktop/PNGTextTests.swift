import Testing
import ThumbsImaging
import ThumbsTestSupport
import ThumbsSamples

@testable import ThumbsFreedesktop
import ThumbsCore
import ThumbsCoreTestSupport

@Suite struct PNGTextTests {
    let fields = [(key: "Thumb::URI", value: "file:///p/a%20b.jpg"), (key: "Thumb::MTime", value: "1700000000")]

    @Test func fieldsComeBackAndTheImageStillLoads() throws {
        let png = try SyntheticImage(width: 40, height: 30).encoded(as: .png)
        let tagged = try PNGText.inserting(fields, into: png)
        #expect(PNGText.fields(of: tagged) == ["Thumb::URI": "file:///p/a%20b.jpg", "Thumb::MTime": "1700000000"])
        let folder = TemporaryFolder()
        let properties = try VipsRenderer().probe(try folder.write(tagged, to: "tagged.png"))
        #expect(properties.pixelSize == PixelSize(width: 40, height: 30))
        #expect(PNGText.fields(of: png) == [:], "libvips writes no text of its own")
    }

    @Test func aFileCutShortOrDamagedHasNoFields() throws {
        let tagged = try PNGText.inserting(fields, into: try SyntheticImage(width: 40, height: 30).encoded(as: .png))
        #expect(PNGText.fields(of: Array(tagged.dropLast(12))) == nil, "no end chunk")
        var damaged = tagged
        damaged[damaged.count / 2] ^= 0x55
        #expect(PNGText.fields(of: damaged) == nil, "a CRC that does not check")
        #expect(PNGText.fields(of: Array("not a png".utf8)) == nil)
        #expect(PNGText.fields(of: []) == nil)
    }

    @Test func onlyLatin1TextIsWritten() throws {
        let png = try SyntheticImage(width: 4, height: 4).encoded(as: .png)
        #expect(throws: PNGText.Failure.notLatin1("日本")) {
            try PNGText.inserting([(key: "Title", value: "日本")], into: png)
        }
        #expect(throws: PNGText.Failure.notLatin1("")) { try PNGText.inserting([(key: "", value: "x")], into: png) }
        #expect(throws: PNGText.Failure.notPNG) { try PNGText.inserting(fields, into: [0xFF, 0xD8, 0xFF]) }
    }

    @Test func theCRCIsPNGs() {
        // The CRC of an IEND chunk, in every PNG file.
        #expect(PNGText.crc32(Array("IEND".utf8)[...]) == 0xAE42_6082)
    }
}
