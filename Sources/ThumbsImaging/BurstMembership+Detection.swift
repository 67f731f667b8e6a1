import Foundation
import ThumbsCore

extension BurstMembership {
    /// Apple's MakerNote BurstUUID (exiftool's name for tag 0x000B).
    package static let appleBurstTag: UInt16 = 0x000B
    /// The longest burst identifier taken, in UTF-8 bytes: Apple's and Google's are UUIDs (36
    /// characters), a name's a few dozen; a longer one is a damaged file's, and no burst.
    package static let longestIdentifier = 256

    /// The burst of an iPhone's frame: its MakerNote's BurstUUID. No field marks a cover.
    package init?(appleMakerNote: AppleMakerNote) {
        guard let identifier = appleMakerNote.string(Self.appleBurstTag), Self.isAcceptable(identifier) else {
            return nil
        }
        self.init(identifier: identifier)
    }

    /// The burst Google's camera writes in XMP: `GCamera:BurstID`, and `GCamera:BurstPrimary`
    /// "1" on the frame it picked.
    package init?(xmp: XMPPacket) {
        let camera = MotionPhotoXMP.cameraNamespace
        guard let identifier = xmp.value(of: "BurstID", in: camera, conventionally: "GCamera"),
            Self.isAcceptable(identifier)
        else { return nil }
        self.init(
            identifier: identifier, isCover: xmp.value(of: "BurstPrimary", in: camera, conventionally: "GCamera") == "1"
        )
    }

    /// The burst Android cameras write in a frame's name, for files whose metadata says none.
    /// Google's Camera and Sony's name frames `00001IMG_00001_BURST20201123164411530.jpg`
    /// (`DSC_0001_BURST….JPG`): the burst is the `BURST` and the capture time after it.
    /// Motorola's, Fairphone's and older Nexus cameras name them
    /// `IMG_20180914_094602055_BURST001.jpg`: the burst is the name before its frame number.
    /// Either way `_COVER` after it marks the cover.
    package init?(fileName: String) {
        var stem = Substring(fileName)
        if let dot = stem.lastIndex(of: ".") { stem = stem[..<dot] }
        let isCover = stem.uppercased().hasSuffix("_COVER")
        if isCover { stem = stem.dropLast(6) }
        guard let burst = stem.range(of: "BURST", options: .backwards) else { return nil }
        let digits = stem[burst.upperBound...]
        guard !digits.isEmpty, digits.allSatisfy({ ("0"..."9").contains($0) }) else { return nil }
        let identifier: Substring
        if digits.count >= 14 {
            identifier = stem[burst.lowerBound...]
        } else if digits.count == 3, stem[..<burst.lowerBound].hasSuffix("_"), burst.lowerBound > stem.startIndex {
            identifier = stem[..<burst.upperBound]
        } else {
            return nil
        }
        guard Self.isAcceptable(String(identifier)) else { return nil }
        self.init(identifier: String(identifier), isCover: isCover)
    }

    private static func isAcceptable(_ identifier: String) -> Bool {
        !identifier.isEmpty && identifier.utf8.count <= longestIdentifier
    }
}
