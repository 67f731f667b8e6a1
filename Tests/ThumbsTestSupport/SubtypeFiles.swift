import Foundation
import Testing
import ThumbsCoreTestSupport
import ThumbsSamples

/// Photos of each subtype a file can say, made for a test: an iPhone burst's frames (a JPEG whose
/// EXIF holds an Apple MakerNote with BurstUUID, built byte by byte as ``LivePhotoFiles`` builds
/// one), pictures tagged by exiftool (XMP `GPano`, `GDepth`, `GCamera:BurstID`, EXIF
/// UserComment), screen-sized PNGs, and a HEIC whose auxiliary picture is a depth map (heif-enc
/// writes a picture with alpha; its `auxC` type is then changed to depth's, of the same length).
package enum SubtypeFiles {
    package static let heifEncSkipReason: Comment =
        "heif-enc (Debian's libheif-examples) is absent: the generated depth HEIC test skipped"

    package static let heifEnc = "/usr/bin/heif-enc"
    package static var hasHeifEnc: Bool { FileManager.default.isExecutableFile(atPath: heifEnc) }

    /// An Apple MakerNote holding MakerNoteVersion (tag 0x0001, 14) and BurstUUID (tag 0x000B),
    /// its text after the directory.
    package static func appleMakerNote(burstUUID: String) -> [UInt8] {
        let text = Array(burstUUID.utf8) + [0]
        let textOffset = 14 + 2 + 2 * 12 + 4
        return Array("Apple iOS\0".utf8) + bigEndian(1, 2) + Array("MM".utf8) + bigEndian(2, 2)
            + entry(tag: 0x0001, type: 9, count: 1, value: bigEndian(14, 4))
            + entry(tag: 0x000B, type: 2, count: text.count, value: bigEndian(textOffset, 4)) + bigEndian(0, 4) + text
    }

    /// A JPEG as an iPhone writes a burst's frame: Make "Apple", the MakerNote holding
    /// `burstUUID`; `shade` tells the frames apart.
    package static func iPhoneBurstFrame(burstUUID: String, shade: Int = 0) throws -> [UInt8] {
        let tiff = LivePhotoFiles.exif(make: "Apple", makerNote: appleMakerNote(burstUUID: burstUUID))
        let jpeg = try SyntheticImage(width: 64 + shade, height: 48).encoded(as: .jpeg)
        return LivePhotoFiles.inserting(app1: Array("Exif\0\0".utf8) + tiff, into: jpeg)
    }

    /// Writes a plain JPEG (no camera's Make) at `path`, then has exiftool write `tags`
    /// ("-XMP-GPano:ProjectionType=equirectangular"…).
    package static func taggedJPEG(at path: String, tags: [String], width: Int = 64, height: Int = 48) throws {
        try Data(try SyntheticImage(width: width, height: height).encoded(as: .jpeg))
            .write(to: URL(fileURLWithPath: path))
        let tagged = try ThumbsProcess.run(
            ["-q", "-overwrite_original"] + tags + [path], executablePath: LivePhotoFiles.exiftool)
        guard tagged.status == 0 else {
            throw GeneratedMedia.GenerationFailure(tool: "exiftool", message: tagged.standardError)
        }
    }

    /// A HEIC at `path` whose auxiliary picture is a depth map: heif-enc encodes a picture with
    /// alpha (auxiliary type "urn:mpeg:hevc:2015:auxid:1"), which then becomes depth ("…:2").
    package static func depthHEIC(at path: String) throws {
        let png = path + ".png"
        try Data(try SyntheticImage(width: 64, height: 48, pixels: .rgba).encoded(as: .png))
            .write(to: URL(fileURLWithPath: png))
        let encoded = try ThumbsProcess.run(["-o", path, png], executablePath: heifEnc)
        guard encoded.status == 0 else {
            throw GeneratedMedia.GenerationFailure(tool: "heif-enc", message: encoded.standardError)
        }
        var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        let alpha = Array("urn:mpeg:hevc:2015:auxid:1".utf8)
        guard
            let at = bytes.indices.dropLast(alpha.count).first(where: {
                bytes[$0..<$0 + alpha.count].elementsEqual(alpha)
            })
        else { throw GeneratedMedia.GenerationFailure(tool: "heif-enc", message: "no alpha auxiliary picture") }
        bytes[at + alpha.count - 1] = UInt8(ascii: "2")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    /// A JPEG whose header carries ISO 21496-1 gain-map metadata as a primary picture's does: an
    /// APP2 segment of the standard's URN and a version (minimum and writer version 0).
    package static func isoGainMapJPEG() throws -> [UInt8] {
        let jpeg = try SyntheticImage(width: 64, height: 48).encoded(as: .jpeg)
        let payload = Array("urn:iso:std:iso:ts:21496:-1\0".utf8) + [0, 0, 0, 0]
        return Array(jpeg.prefix(2)) + [0xFF, 0xE2] + bigEndian(payload.count + 2, 2) + payload + jpeg.dropFirst(2)
    }

    /// An XMP packet of the given properties' elements, each in its own description binding
    /// its namespace, as exiftool writes them: (prefix, namespace, property, value).
    package static func xmpPacket(_ properties: [(String, String, String, String)]) -> String {
        let descriptions = properties.map { prefix, namespace, property, value in
            "<rdf:Description rdf:about='' xmlns:\(prefix)='\(namespace)'>"
                + "<\(prefix):\(property)>\(value)</\(prefix):\(property)></rdf:Description>"
        }
        return "<x:xmpmeta xmlns:x='adobe:ns:meta/'><rdf:RDF xmlns:rdf='http://www.w3.org/1999/02/22-rdf-syntax-ns#'>"
            + descriptions.joined() + "</rdf:RDF></x:xmpmeta>"
    }

    private static func entry(tag: Int, type: Int, count: Int, value: [UInt8]) -> [UInt8] {
        bigEndian(tag, 2) + bigEndian(type, 2) + bigEndian(count, 4) + value
    }

    private static func bigEndian(_ value: some BinaryInteger, _ width: Int) -> [UInt8] {
        (0..<width).reversed().map { UInt8(truncatingIfNeeded: Int(value) >> ($0 * 8)) }
    }
}
