import Foundation
import Testing
import ThumbsImaging
import ThumbsTestSupport

/// Google's motion photo XMP, in both formats, both property forms, and under other prefixes.
@Suite struct MotionPhotoXMPTests {
    static func length(_ packet: String) -> UInt64? {
        MotionPhotoXMP(Array(packet.utf8)).trailingMovieLength
    }

    @Test(arguments: LivePhotoFiles.XMPForm.allCases)
    func theMotionPhotoItemsLengthIsTheMovies(form: LivePhotoFiles.XMPForm) {
        #expect(Self.length(LivePhotoFiles.motionPhotoXMP(movieLength: 123_456, form: form)) == 123_456)
    }

    @Test func microVideoGivesItsOffsetFromTheEnd() {
        #expect(Self.length(LivePhotoFiles.microVideoXMP(offset: 98_765)) == 98_765)
        #expect(Self.length(LivePhotoFiles.microVideoXMP(offset: 0)) == nil)
    }

    @Test func prefixesAreTheOnesThePacketBinds() {
        let packet = LivePhotoFiles.motionPhotoXMP(movieLength: 777, form: .attributes)
            .replacingOccurrences(of: "GCamera:", with: "cam:")
            .replacingOccurrences(of: "Container:", with: "dir:")
            .replacingOccurrences(of: "Item:", with: "it:")
            .replacingOccurrences(of: "xmlns:GCamera=", with: "xmlns:cam=")
            .replacingOccurrences(of: "xmlns:Container=", with: "xmlns:dir=")
            .replacingOccurrences(of: "xmlns:Item=", with: "xmlns:it=")
        #expect(Self.length(packet) == 777)
        // The conventional prefixes, unbound, are not Google's.
        #expect(Self.length(packet.replacingOccurrences(of: "cam:", with: "GCamera:")) == nil)
    }

    @Test func noClaimOrAnUnreadableOneIsNil() {
        let motion = LivePhotoFiles.motionPhotoXMP(movieLength: 5000, form: .attributes)
        #expect(Self.length(motion.replacingOccurrences(of: #"MotionPhoto="1""#, with: #"MotionPhoto="0""#)) == nil)
        #expect(Self.length(motion.replacingOccurrences(of: "\"5000\"", with: "\"-5\"")) == nil)
        #expect(Self.length(motion.replacingOccurrences(of: "\"5000\"", with: "\"99999999999999999999999\"")) == nil)
        // MicroVideoOffset without MicroVideo="1".
        #expect(Self.length(#"<x GCamera:MicroVideoOffset="10"/>"#) == nil)
        for cut in [
            "", "<", #"GCamera:MotionPhoto=""#, "<GCamera:MotionPhoto>1",
            #"<Container:Item Item:Semantic="MotionPhoto" Item:Length="#,
        ] {
            #expect(Self.length(cut) == nil, "\(cut)")
        }
    }
}
