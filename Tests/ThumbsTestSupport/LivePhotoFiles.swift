import Foundation
import Testing
import ThumbsCoreTestSupport
import ThumbsSamples

/// Live Photos and motion photos made for a test: an iPhone-style still (a JPEG whose EXIF holds
/// an Apple MakerNote, built here byte by byte, as exiftool writes no MakerNote from nothing; a
/// HEIC with the same EXIF, by the `vips` command and exiftool), its movie (a QuickTime file
/// tagged by the `ffmpeg` command), and Google's motion photos (a JPEG with the XMP packet the
/// format defines, an MP4 appended).
package enum LivePhotoFiles {
    package static let exiftoolSkipReason: Comment =
        "exiftool (Debian's libimage-exiftool-perl) is absent: generated Live Photo HEIC tests skipped"

    package static let exiftool = "/usr/bin/exiftool"
    package static var hasExiftool: Bool { FileManager.default.isExecutableFile(atPath: exiftool) }

    // MARK: Apple's stills

    /// An Apple MakerNote: "Apple iOS\0", version 1, "MM", then a directory holding
    /// MakerNoteVersion (tag 0x0001, 14) and, when given, ContentIdentifier (tag 0x0011), its
    /// text after the directory at an offset from the MakerNote's start, as Apple writes it.
    package static func appleMakerNote(contentIdentifier: String?) -> [UInt8] {
        let text: [UInt8] = contentIdentifier.map { Array($0.utf8) + [0] } ?? []
        let entryCount = contentIdentifier == nil ? 1 : 2
        let textOffset = 14 + 2 + entryCount * 12 + 4
        var bytes = Array("Apple iOS\0".utf8) + bigEndian(UInt16(1), 2) + Array("MM".utf8)
        bytes += bigEndian(entryCount, 2) + entry(tag: 0x0001, type: 9, count: 1, value: bigEndian(14, 4))
        if contentIdentifier != nil {
            bytes += entry(tag: 0x0011, type: 2, count: text.count, value: bigEndian(textOffset, 4))
        }
        return bytes + bigEndian(0, 4) + text
    }

    /// A big-endian TIFF structure as EXIF holds it: IFD0 with Make and the Exif IFD's pointer,
    /// the Exif IFD with `makerNote` (its offset after the directories).
    package static func exif(make: String, makerNote: [UInt8]) -> [UInt8] {
        let makeText = Array(make.utf8) + [0]
        let makeOffset = 8 + 2 + 2 * 12 + 4
        let exifOffset = makeOffset + makeText.count
        let makerNoteOffset = exifOffset + 2 + 12 + 4
        var bytes = Array("MM".utf8) + bigEndian(42, 2) + bigEndian(8, 4)
        bytes += bigEndian(2, 2) + entry(tag: 0x010F, type: 2, count: makeText.count, value: bigEndian(makeOffset, 4))
        bytes += entry(tag: 0x8769, type: 4, count: 1, value: bigEndian(exifOffset, 4)) + bigEndian(0, 4) + makeText
        bytes +=
            bigEndian(1, 2) + entry(tag: 0x927C, type: 7, count: makerNote.count, value: bigEndian(makerNoteOffset, 4))
        return bytes + bigEndian(0, 4) + makerNote
    }

    /// `jpeg` with an APP1 segment of `payload` right after its start of image.
    package static func inserting(app1 payload: [UInt8], into jpeg: [UInt8]) -> [UInt8] {
        Array(jpeg.prefix(2)) + [0xFF, 0xE1] + bigEndian(payload.count + 2, 2) + payload + jpeg.dropFirst(2)
    }

    /// A JPEG as an iPhone writes one of a Live Photo: Make "Apple", the MakerNote holding
    /// `contentIdentifier`.
    package static func iPhoneStill(contentIdentifier: String) throws -> [UInt8] {
        let tiff = exif(make: "Apple", makerNote: appleMakerNote(contentIdentifier: contentIdentifier))
        return inserting(
            app1: Array("Exif\0\0".utf8) + tiff, into: try SyntheticImage(width: 64, height: 48).encoded(as: .jpeg))
    }

    /// A HEIC at `path` with the EXIF of ``iPhoneStill(contentIdentifier:)``, whose JPEG is kept
    /// beside it (`path`.jpg): libvips encodes the picture, exiftool copies the EXIF block.
    package static func iPhoneHEIC(at path: String, contentIdentifier: String) throws {
        let still = path + ".jpg"
        try Data(try iPhoneStill(contentIdentifier: contentIdentifier)).write(to: URL(fileURLWithPath: still))
        let encoded = try ThumbsProcess.run(["copy", still, path], executablePath: GeneratedMedia.vips)
        guard encoded.status == 0 else {
            throw GeneratedMedia.GenerationFailure(tool: "vips", message: encoded.standardError)
        }
        let copied = try ThumbsProcess.run(
            ["-q", "-overwrite_original", "-tagsFromFile", still, "-EXIF", path], executablePath: exiftool)
        guard copied.status == 0 else {
            throw GeneratedMedia.GenerationFailure(tool: "exiftool", message: copied.standardError)
        }
    }

    /// A Live Photo's movie: one second of QuickTime tagged with `contentIdentifier`.
    package static func liveMovie(at path: String, contentIdentifier: String) throws {
        try GeneratedMedia.ffmpeg([
            "-f", "lavfi", "-i", "testsrc=size=64x48:rate=10", "-t", "1", "-movflags", "use_metadata_tags",
            "-metadata", "com.apple.quicktime.content.identifier=\(contentIdentifier)", path,
        ])
    }

    // MARK: Google's motion photos

    /// One second of MP4 (its `moov` after its `mdat`, as FFmpeg writes by default), as bytes.
    package static func movie(in folder: TemporaryFolder) throws -> [UInt8] {
        let path = folder.path + "/appended-movie.mp4"
        try GeneratedMedia.ffmpeg(["-f", "lavfi", "-i", "testsrc=size=64x48:rate=10", "-t", "1", path])
        return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// How the XMP packet writes its properties.
    package enum XMPForm: String, Sendable, CaseIterable {
        /// `GCamera:MotionPhoto="1"`.
        case attributes
        /// `<GCamera:MotionPhoto>1</GCamera:MotionPhoto>`.
        case elements
    }

    /// A Motion Photo 1.0 packet: `GCamera:MotionPhoto` and a directory of the primary picture
    /// and a "MotionPhoto" item of `movieLength` bytes.
    package static func motionPhotoXMP(movieLength: Int, form: XMPForm) -> String {
        let items: String
        let camera: String
        switch form {
        case .attributes:
            camera = #"GCamera:MotionPhoto="1" GCamera:MotionPhotoVersion="1""#
            items = """
                <rdf:li rdf:parseType="Resource"><Container:Item Item:Mime="image/jpeg" Item:Semantic="Primary" \
                Item:Length="0" Item:Padding="0"/></rdf:li>
                <rdf:li rdf:parseType="Resource"><Container:Item Item:Mime="video/mp4" Item:Semantic="MotionPhoto" \
                Item:Length="\(movieLength)" Item:Padding="0"/></rdf:li>
                """
        case .elements:
            camera = ""
            items = """
                <rdf:li rdf:parseType="Resource"><Container:Item rdf:parseType="Resource">
                <Item:Mime>image/jpeg</Item:Mime><Item:Semantic>Primary</Item:Semantic><Item:Length>0</Item:Length>
                </Container:Item></rdf:li>
                <rdf:li rdf:parseType="Resource"><Container:Item rdf:parseType="Resource">
                <Item:Mime>video/mp4</Item:Mime><Item:Semantic>MotionPhoto</Item:Semantic>
                <Item:Length>\(movieLength)</Item:Length></Container:Item></rdf:li>
                """
        }
        let motionElement = form == .elements ? "<GCamera:MotionPhoto>1</GCamera:MotionPhoto>" : ""
        return packet(
            attributes: camera,
            body: motionElement + "<Container:Directory><rdf:Seq>\(items)</rdf:Seq></Container:Directory>")
    }

    /// An older MicroVideo packet: the movie is the file's last `offset` bytes.
    package static func microVideoXMP(offset: Int) -> String {
        packet(
            attributes: #"GCamera:MicroVideo="1" GCamera:MicroVideoVersion="1" GCamera:MicroVideoOffset="\#(offset)""#,
            body: "")
    }

    /// A JPEG with the XMP `packet` (APP1 with Adobe's namespace), then `movie` appended.
    package static func motionPhoto(xmp packet: String, movie: [UInt8]) throws -> [UInt8] {
        let jpeg = try SyntheticImage(width: 64, height: 48).encoded(as: .jpeg)
        return inserting(app1: Array("http://ns.adobe.com/xap/1.0/\0".utf8) + Array(packet.utf8), into: jpeg) + movie
    }

    private static func packet(attributes: String, body: String) -> String {
        """
        <?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?>
        <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
        <rdf:Description rdf:about="" xmlns:GCamera="http://ns.google.com/photos/1.0/camera/"
         xmlns:Container="http://ns.google.com/photos/1.0/container/"
         xmlns:Item="http://ns.google.com/photos/1.0/container/item/" \(attributes)>\(body)</rdf:Description>
        </rdf:RDF></x:xmpmeta>
        <?xpacket end="w"?>
        """
    }

    private static func entry(tag: Int, type: Int, count: Int, value: [UInt8]) -> [UInt8] {
        bigEndian(tag, 2) + bigEndian(type, 2) + bigEndian(count, 4) + value
    }

    private static func bigEndian(_ value: some BinaryInteger, _ width: Int) -> [UInt8] {
        (0..<width).reversed().map { UInt8(truncatingIfNeeded: Int(value) >> ($0 * 8)) }
    }
}
