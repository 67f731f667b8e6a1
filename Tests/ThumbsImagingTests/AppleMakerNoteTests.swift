import Foundation
import Testing
import ThumbsCore
import ThumbsRendering
import ThumbsTestSupport

@testable import ThumbsImaging

/// Apple's MakerNote read from EXIF blocks built byte by byte (and damaged on purpose), and from
/// a real iPhone's HEIC through libvips.
@Suite struct AppleMakerNoteTests {
    static let identifier = "5C1E9B0A-7D6E-4F1A-9E44-1D2C3B4A5F60"

    @Test func readsTagsByNumberFromAnEXIFBlock() throws {
        let makerNote = LivePhotoFiles.appleMakerNote(contentIdentifier: Self.identifier)
        let tiff = LivePhotoFiles.exif(make: "Apple", makerNote: makerNote)
        // As libvips gives it for a JPEG (after APP1's "Exif\0\0"), bare, and after HEIF's
        // 4-byte offset.
        for exif in [Array("Exif\0\0".utf8) + tiff, tiff, [0, 0, 0, 0] + tiff] {
            let note = try #require(AppleMakerNote(exif: exif))
            #expect(note.contentIdentifier == Self.identifier)
            #expect(note.integer(0x0001) == 14)
            #expect(note.string(0x0001) == nil && note.integer(AppleMakerNote.contentIdentifierTag) == nil)
        }
        #expect(
            AppleMakerNote(makerNote: LivePhotoFiles.appleMakerNote(contentIdentifier: nil))?.contentIdentifier == nil)
        // Longer than any identifier Apple writes: a damaged file's.
        let long = LivePhotoFiles.appleMakerNote(contentIdentifier: String(repeating: "A", count: 300))
        #expect(AppleMakerNote(makerNote: long)?.contentIdentifier == nil)
    }

    @Test func anotherMakersNoteOrNoneIsNil() {
        var nikon = LivePhotoFiles.appleMakerNote(contentIdentifier: Self.identifier)
        nikon.replaceSubrange(0..<10, with: Array("Nikon\0\0\0\0\0".utf8))
        #expect(AppleMakerNote(exif: LivePhotoFiles.exif(make: "NIKON", makerNote: nikon)) == nil)
        #expect(AppleMakerNote(exif: LivePhotoFiles.exif(make: "Apple", makerNote: [])) == nil)
        #expect(AppleMakerNote(exif: Array("Exif\0\0".utf8)) == nil)
        #expect(AppleMakerNote(exif: []) == nil)
    }

    @Test(arguments: ["text past the end", "entries past the end", "a huge count", "cut short"])
    func aDamagedMakerNoteGivesNoIdentifier(damage: String) {
        var note = LivePhotoFiles.appleMakerNote(contentIdentifier: Self.identifier)
        switch damage {
        // The second entry's offset (at 14 + 2 + 12 + 8) points past the MakerNote's end.
        case "text past the end": note.replaceSubrange(36..<40, with: [0, 0, 0x10, 0])
        // The directory claims 5000 entries.
        case "entries past the end": note.replaceSubrange(14..<16, with: [0x13, 0x88])
        // The identifier's count, 2^32 - 1 characters.
        case "a huge count": note.replaceSubrange(32..<36, with: [0xFF, 0xFF, 0xFF, 0xFF])
        default: note.removeLast(10)
        }
        #expect(AppleMakerNote(makerNote: note)?.contentIdentifier == nil)
        #expect(AppleMakerNote(exif: LivePhotoFiles.exif(make: "Apple", makerNote: note))?.contentIdentifier == nil)
    }

    @Test func directoriesPointingAtThemselvesOrPastTheEndAreNotFollowed() {
        var tiff = LivePhotoFiles.exif(
            make: "Apple", makerNote: LivePhotoFiles.appleMakerNote(contentIdentifier: Self.identifier))
        // The Exif IFD pointer (IFD0's second entry, its value at 8 + 2 + 12 + 8) to IFD0 itself,
        // then past the end.
        tiff.replaceSubrange(30..<34, with: [0, 0, 0, 8])
        #expect(AppleMakerNote(exif: tiff) == nil)
        tiff.replaceSubrange(30..<34, with: [0xFF, 0xFF, 0xFF, 0xF0])
        #expect(AppleMakerNote(exif: tiff) == nil)
        // IFD0 itself past the end.
        var lost = LivePhotoFiles.exif(make: "Apple", makerNote: [])
        lost.replaceSubrange(4..<8, with: [0x7F, 0, 0, 0])
        #expect(AppleMakerNote(exif: lost) == nil)
    }

    @Test(.enabled(if: SharedPhotos.isPresent, SharedPhotos.skipReason))
    func aRealIPhoneHEICHasAnAppleMakerNote() throws {
        let path = SharedPhotos.root.appendingPathComponent("phone/iphone_13_pro_max.HEIC").path
        let exif = try VipsCallGate.run { () throws(ImagingError) in
            try ImageFile(ImageSource(ImageLocation(path: path)), pixelLimit: 200_000_000).header.blob("exif-data")
        }
        let block = try #require(exif)
        let note = try #require(AppleMakerNote(exif: block))
        // exiftool: MakerNoteVersion 14, and no ContentIdentifier (a still of no Live Photo).
        #expect(note.integer(0x0001) == 14)
        #expect(note.contentIdentifier == nil)
    }
}
