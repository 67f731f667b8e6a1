import Testing
import ThumbsCore
import ThumbsTestSupport

@testable import ThumbsImaging

/// The subtypes XMP packets, HEIF items and a screenshot's signs say.
@Suite struct MediaSubtypesDetectionTests {
    typealias Namespace = MediaSubtypes.Namespace

    static func subtypes(_ properties: [(String, String, String, String)]) -> MediaSubtypes {
        MediaSubtypes(xmp: XMPPacket(Array(SubtypeFiles.xmpPacket(properties).utf8)))
    }

    @Test func xmpMarksPanoramasDepthMapsAndGainMaps() {
        #expect(Self.subtypes([("GPano", Namespace.gPano, "ProjectionType", "equirectangular")]) == .photoPanorama)
        #expect(Self.subtypes([("GPano", Namespace.gPano, "UsePanoramaViewer", "True")]) == .photoPanorama)
        #expect(Self.subtypes([("GPano", Namespace.gPano, "UsePanoramaViewer", "False")]) == [])
        #expect(Self.subtypes([("GDepth", Namespace.gDepth, "Format", "RangeInverse")]) == .photoDepthEffect)
        #expect(Self.subtypes([("Depthmap", Namespace.dynamicDepthMap, "Format", "RangeLinear")]) == .photoDepthEffect)
        #expect(Self.subtypes([("hdrgm", Namespace.gainMap, "Version", "1.0")]) == .photoHDR)
        #expect(Self.subtypes([("HDRGainMap", Namespace.appleGainMap, "HDRGainMapVersion", "65536")]) == .photoHDR)
        let ultraHDR = #"<Container:Item Item:Semantic="Primary"/><Container:Item Item:Semantic="GainMap"/>"#
        #expect(MediaSubtypes(xmp: XMPPacket(Array(ultraHDR.utf8))) == .photoHDR)
        // Another namespace's property of the same name says nothing.
        #expect(Self.subtypes([("GPano", "http://example.com/other/", "ProjectionType", "equirectangular")]) == [])
    }

    @Test func heifItemsMarkDepthMattesAndGainMaps() {
        func subtypes(aux: [String] = [], items: Set<String> = [], transfer: Int? = nil) -> MediaSubtypes {
            MediaSubtypes(
                heif: HEIFMetaBox(auxiliaryTypes: aux, itemTypes: items, primaryTransferCharacteristics: transfer))
        }
        #expect(subtypes(aux: ["urn:mpeg:hevc:2015:auxid:1"]) == [])
        #expect(subtypes(aux: ["urn:mpeg:hevc:2015:auxid:2"]) == .photoDepthEffect)
        #expect(subtypes(aux: ["urn:mpeg:mpegB:cicp:systems:auxiliary:depth"]) == .photoDepthEffect)
        #expect(subtypes(aux: ["urn:com:apple:photo:2018:aux:portraiteffectsmatte"]) == .photoDepthEffect)
        #expect(subtypes(aux: ["urn:com:apple:photo:2019:aux:semanticskinmatte"]) == .photoDepthEffect)
        #expect(subtypes(aux: ["urn:com:apple:photo:2018:aux:depth"]) == .photoDepthEffect)
        #expect(subtypes(aux: ["urn:com:apple:photo:2020:aux:hdrgainmap"]) == .photoHDR)
        #expect(subtypes(items: ["hvc1", "tmap"]) == .photoHDR)
        #expect(subtypes(transfer: 16) == .photoHDR && subtypes(transfer: 18) == .photoHDR)
        #expect(subtypes(items: ["hvc1", "grid"], transfer: 13) == [])
    }

    @Test func screenshotsByCommentNameFolderOrScreenSize() {
        func isScreenshot(
            comment: String? = nil, make: String? = nil, type: MediaType = .jpeg, width: Int = 64, height: Int = 48,
            path: String = "DCIM/IMG_0001.jpg"
        ) -> Bool {
            MediaSubtypes.isScreenshot(
                userComment: comment, cameraMake: make, mediaType: type,
                pixelSize: PixelSize(width: width, height: height), path: path)
        }
        #expect(isScreenshot(comment: "Screenshot", make: "Apple"))
        #expect(!isScreenshot(comment: "Captured by a phone"))
        #expect(isScreenshot(path: "Pictures/Screenshot_20240101-120000.png"))
        #expect(isScreenshot(path: "Pictures/Screenshots/IMG_0001.jpg"))
        // A camera's photo in a Screenshots folder is a photo.
        #expect(!isScreenshot(make: "Google", path: "Screenshots/PXL_20240101.jpg"))
        #expect(
            isScreenshot(type: .png, width: 1170, height: 2532) && isScreenshot(type: .png, width: 2532, height: 1170))
        #expect(isScreenshot(type: .png, width: 1920, height: 1080))
        #expect(!isScreenshot(type: .jpeg, width: 1920, height: 1080))
        #expect(!isScreenshot(type: .png, width: 1000, height: 1000))
    }
}
