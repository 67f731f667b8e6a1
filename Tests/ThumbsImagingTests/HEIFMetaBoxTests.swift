import Foundation
import Testing
import ThumbsCore
import ThumbsCoreTestSupport
import ThumbsTestSupport

@testable import ThumbsImaging

/// A HEIF file's `meta` box read from boxes built here (and damaged on purpose), from a HEIC
/// heif-enc wrote and from real phones' files.
@Suite struct HEIFMetaBoxTests {
    static func box(_ type: String, _ contents: [UInt8]) -> [UInt8] {
        let size = contents.count + 8
        return [UInt8(size >> 24 & 0xFF), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF)]
            + Array(type.utf8) + contents
    }

    /// `ftyp`, then a `meta` box: `pitm` (item 1), `iinf` with an `hvc1` item 1 and a `tmap`
    /// item 2 (infe version 2), and `iprp` whose `ipco` holds a PQ colour (property 1), an sRGB
    /// colour (2) and a depth `auxC` (3), `ipma` giving item 1 properties `primaryProperties`.
    /// `associations` overrides the count of the primary's associations.
    static func file(primaryProperties: [UInt8], ipmaFlags: UInt8 = 0, associations: UInt8? = nil) -> [UInt8] {
        let items =
            box("infe", [2, 0, 0, 0, 0, 1, 0, 0] + Array("hvc1".utf8))
            + box("infe", [2, 0, 0, 0, 0, 2, 0, 0] + Array("tmap".utf8))
        let colours =
            box("colr", Array("nclx".utf8) + [0, 9, 0, 16, 0, 9, 0])
            + box("colr", Array("nclx".utf8) + [0, 1, 0, 13, 0, 1, 0])
        let auxiliary = box("auxC", [0, 0, 0, 0] + Array("urn:mpeg:hevc:2015:auxid:2\0".utf8) + [1, 2])
        let count = associations ?? UInt8(primaryProperties.count / (ipmaFlags == 1 ? 2 : 1))
        let association = box("ipma", [0, 0, 0, ipmaFlags, 0, 0, 0, 1, 0, 1, count] + primaryProperties)
        let meta = box(
            "meta",
            [0, 0, 0, 0] + box("hdlr", [0, 0, 0, 0, 0, 0, 0, 0] + Array("pict".utf8))
                + box("pitm", [0, 0, 0, 0, 0, 1]) + box("iinf", [0, 0, 0, 0, 0, 2] + items)
                + box("iprp", box("ipco", colours + auxiliary) + association))
        return box("ftyp", Array("heic".utf8) + [0, 0, 0, 0]) + meta + box("mdat", [])
    }

    @Test func readsAuxiliaryTypesItemTypesAndThePrimarysTransfer() throws {
        let meta = try #require(HEIFMetaBox(in: FileBytes(Self.file(primaryProperties: [0x81]))))
        #expect(meta.auxiliaryTypes == ["urn:mpeg:hevc:2015:auxid:2"])
        #expect(meta.itemTypes == ["hvc1", "tmap"])
        #expect(meta.primaryTransferCharacteristics == 16)
        let srgb = try #require(HEIFMetaBox(in: FileBytes(Self.file(primaryProperties: [0x02]))))
        #expect(srgb.primaryTransferCharacteristics == 13)
        // Sixteen-bit property indices (flags bit 0).
        let wide = try #require(HEIFMetaBox(in: FileBytes(Self.file(primaryProperties: [0x80, 0x01], ipmaFlags: 1))))
        #expect(wide.primaryTransferCharacteristics == 16)
    }

    @Test(arguments: ["an index past the list", "an association count past the box", "cut short", "no ftyp"])
    func aDamagedBoxGivesWhatFits(damage: String) {
        var bytes = Self.file(primaryProperties: [0x81])
        switch damage {
        case "an index past the list": bytes = Self.file(primaryProperties: [0x09])
        case "an association count past the box": bytes = Self.file(primaryProperties: [0x81], associations: 200)
        case "cut short": bytes.removeLast(30)
        default: bytes.replaceSubrange(4..<8, with: Array("free".utf8))
        }
        #expect(HEIFMetaBox(in: FileBytes(bytes))?.primaryTransferCharacteristics == nil)
    }

    @Test(.enabled(if: SubtypeFiles.hasHeifEnc, SubtypeFiles.heifEncSkipReason))
    func readsTheDepthMapOfAGeneratedHEIC() throws {
        let folder = TemporaryFolder()
        let path = folder.path + "/depth.heic"
        try SubtypeFiles.depthHEIC(at: path)
        let meta = try #require(HEIFMetaBox(in: FileBytes(Array(try Data(contentsOf: URL(fileURLWithPath: path))))))
        #expect(meta.auxiliaryTypes == ["urn:mpeg:hevc:2015:auxid:2"])
        #expect(meta.itemTypes.contains("hvc1"))
    }

    @Test(.enabled(if: SharedPhotos.isPresent, SharedPhotos.skipReason))
    func readsPhonesGainMapsAndAPQPicture() throws {
        func meta(_ name: String) throws -> HEIFMetaBox {
            let url = SharedPhotos.root.appendingPathComponent(name)
            return try #require(HEIFMetaBox(in: FileBytes(Array(try Data(contentsOf: url)))))
        }
        #expect(
            try meta("phone/iphone_13_pro_max.HEIC").auxiliaryTypes.contains("urn:com:apple:photo:2020:aux:hdrgainmap"))
        let avif = try meta("exports/seine_hdr_srgb.avif")
        #expect(avif.primaryTransferCharacteristics == 16 && avif.auxiliaryTypes == ["urn:com:photo:aux:hdrgainmap"])
        #expect(try meta("exports/8bit-sRGB.avif").primaryTransferCharacteristics == 13)
    }

    /// A phone's grid picture turned by `irot`, and its pictures' depths; an AVIF's 10 bits.
    @Test(.enabled(if: SharedPhotos.isPresent, SharedPhotos.skipReason))
    func readsSizesUprightAndBitDepths() throws {
        func meta(_ name: String) throws -> HEIFMetaBox {
            let url = SharedPhotos.root.appendingPathComponent(name)
            return try #require(HEIFMetaBox(in: FileBytes(Array(try Data(contentsOf: url)))))
        }
        let iPhone = try meta("phone/iphone_13_pro_max.HEIC")
        #expect(iPhone.primaryItemType == "grid")
        #expect(iPhone.primaryUprightSize == PixelSize(width: 3024, height: 4032))
        #expect(iPhone.largestBitDepth == 8)
        let nokia = try meta("phone/HMD_Nokia_8.3_5G.heif")
        #expect(nokia.primaryUprightSize == PixelSize(width: 3456, height: 4608))
        let avif = try meta("exports/seine_hdr_srgb.avif")
        #expect(avif.primaryItemType == "av01" && avif.largestBitDepth == 10)
    }
}
