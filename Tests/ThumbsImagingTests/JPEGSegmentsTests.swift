import Testing
import ThumbsTestSupport
import ThumbsSamples

@testable import ThumbsImaging

/// A JPEG's header segments, read from a JPEG libvips wrote with an ISO 21496-1 APP2 segment
/// added, and from damaged copies.
@Suite struct JPEGSegmentsTests {
    @Test func readsTheHeaderUpToTheScan() throws {
        let segments = JPEGSegments(in: FileBytes(try SubtypeFiles.isoGainMapJPEG()))
        #expect(segments.segments.first?.marker == 0xE2)
        #expect(segments.hasGainMapMetadata)
        #expect(segments.segments.contains { $0.marker == 0xC0 || $0.marker == 0xC2 })
        #expect(!segments.segments.contains { $0.marker == 0xDA })
        let plain = JPEGSegments(in: FileBytes(try SyntheticImage(width: 64, height: 48).encoded(as: .jpeg)))
        #expect(!plain.segments.isEmpty && !plain.hasGainMapMetadata)
    }

    @Test(arguments: ["a length past the end", "a length under two", "no marker", "not a JPEG"])
    func aDamagedHeaderEndsTheList(damage: String) throws {
        var bytes = try SubtypeFiles.isoGainMapJPEG()
        switch damage {
        case "a length past the end": bytes.replaceSubrange(4..<6, with: [0xFF, 0xF0])
        case "a length under two": bytes.replaceSubrange(4..<6, with: [0, 1])
        case "no marker": bytes[2] = 0x00
        default: bytes[1] = 0x00
        }
        let segments = JPEGSegments(in: FileBytes(bytes))
        #expect(segments.segments.isEmpty && !segments.hasGainMapMetadata)
    }
}
