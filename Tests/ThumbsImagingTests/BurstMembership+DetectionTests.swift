import Testing
import ThumbsCore
import ThumbsTestSupport

@testable import ThumbsImaging

/// Bursts read from Apple's MakerNote, Google's XMP and Android cameras' names.
@Suite struct BurstMembershipDetectionTests {
    static let uuid = "2F0E6A8C-1B3D-4E5F-9A7B-8C6D5E4F3A2B"

    @Test func applesBurstUUID() throws {
        let note = try #require(AppleMakerNote(makerNote: SubtypeFiles.appleMakerNote(burstUUID: Self.uuid)))
        #expect(BurstMembership(appleMakerNote: note) == BurstMembership(identifier: Self.uuid))
        let long = try #require(
            AppleMakerNote(makerNote: SubtypeFiles.appleMakerNote(burstUUID: String(repeating: "A", count: 300))))
        #expect(BurstMembership(appleMakerNote: long) == nil)
        let live = try #require(AppleMakerNote(makerNote: LivePhotoFiles.appleMakerNote(contentIdentifier: Self.uuid)))
        #expect(BurstMembership(appleMakerNote: live) == nil)
    }

    @Test func googlesBurstIDAndPrimary() {
        let camera = MotionPhotoXMP.cameraNamespace
        let frame = SubtypeFiles.xmpPacket([("GCamera", camera, "BurstID", "b9b16484-0edd-4836-b95b-9230a77d2139")])
        #expect(
            BurstMembership(xmp: XMPPacket(Array(frame.utf8)))
                == BurstMembership(identifier: "b9b16484-0edd-4836-b95b-9230a77d2139"))
        let cover = #"<rdf:Description xmlns:GC="\#(camera)" GC:BurstID="b9b1" GC:BurstPrimary="1"/>"#
        #expect(
            BurstMembership(xmp: XMPPacket(Array(cover.utf8))) == BurstMembership(identifier: "b9b1", isCover: true))
        #expect(BurstMembership(xmp: XMPPacket(Array(#"<x GCamera:BurstID=""/>"#.utf8))) == nil)
    }

    @Test(arguments: [
        ("00000IMG_00000_BURST20201123164411530_COVER.jpg", "BURST20201123164411530", true),
        ("00001IMG_00001_BURST20201123164411530.jpg", "BURST20201123164411530", false),
        ("00100lrPORTRAIT_00100_BURST20200418222652648_COVER.jpg", "BURST20200418222652648", true),
        ("DSC_0052_BURST20230709220904977_COVER.JPG", "BURST20230709220904977", true),
        ("IMG_20180914_094602055_BURST000_COVER.jpg", "IMG_20180914_094602055_BURST", true),
        ("IMG_20180914_094602055_BURST001.jpg", "IMG_20180914_094602055_BURST", false),
    ])
    func androidNames(name: String, identifier: String, isCover: Bool) {
        #expect(BurstMembership(fileName: name) == BurstMembership(identifier: identifier, isCover: isCover))
    }

    @Test(arguments: [
        "IMG_20180914_094602055.jpg", "BURST.jpg", "BURST001.jpg", "IMG_BURST12.jpg",
        "PXL_20231207_032108788.RAW-01.MP.COVER.jpg",
        "IMG_BURST2020112316441153x.jpg", "_COVER",
    ])
    func otherNamesAreNoBurst(name: String) {
        #expect(BurstMembership(fileName: name) == nil)
    }
}
