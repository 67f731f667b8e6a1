import Foundation

/// The MakerNote Apple's cameras write into EXIF: "Apple iOS\0", a 16-bit version, "MM", then
/// one big-endian TIFF directory at byte 14 whose value offsets count from the MakerNote's own
/// start. Its tags are read by number (exiftool's names: 0x0011 ContentIdentifier, 0x000B
/// BurstUUID…).
package struct AppleMakerNote: Sendable {
    /// ContentIdentifier: the UUID a Live Photo's still shares with its movie.
    package static let contentIdentifierTag: UInt16 = 0x0011
    /// The longest content identifier taken, in UTF-8 bytes: Apple's are UUIDs (36 characters);
    /// a longer one is a damaged file's, and no identifier.
    package static let longestContentIdentifier = 256

    package let directory: TIFFDirectory

    /// The MakerNote of an EXIF block as libvips gives it (`exif-data`); nil when the block has
    /// no MakerNote or another maker's.
    package init?(exif: [UInt8]) {
        guard let makerNote = TIFFDirectory.makerNote(inEXIF: exif) else { return nil }
        self.init(makerNote: makerNote)
    }

    /// The MakerNote's own bytes; nil unless they are Apple's and their directory fits.
    package init?(makerNote: [UInt8]) {
        let bytes = BoundedBytes(makerNote, bigEndian: true)
        guard bytes.matches("Apple iOS\0".utf8, at: 0), bytes.matches("MM".utf8, at: 12),
            let directory = TIFFDirectory(in: bytes, at: 14)
        else { return nil }
        self.directory = directory
    }

    /// Tag `tag`'s text, when it is ASCII and not empty.
    package func string(_ tag: UInt16) -> String? {
        directory[tag]?.string.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Tag `tag`'s first integer, when it is of an integer type.
    package func integer(_ tag: UInt16) -> Int? {
        directory[tag]?.integer
    }

    /// The ratio of its HDR picture's light to its SDR one's where an Apple HDR gain map is
    /// whole (at least 1): from tags 0x0021 and 0x0030 (exiftool's HDRHeadroom and HDRGain) by
    /// Apple's published formula ("Applying Apple HDR effect to your photos"); nil when either
    /// is missing or not a number.
    package var gainMapHeadroom: Double? {
        guard let headroom = directory[0x0021]?.number, let gain = directory[0x0030]?.number,
            headroom.isFinite, gain.isFinite
        else { return nil }
        let stops =
            headroom < 1
            ? (gain <= 0.01 ? -20 * gain + 1.8 : -0.101 * gain + 1.601)
            : (gain <= 0.01 ? -70 * gain + 3 : -0.303 * gain + 2.303)
        return pow(2, min(max(stops, 0), 16))
    }

    package var contentIdentifier: String? {
        string(Self.contentIdentifierTag).flatMap { $0.utf8.count <= Self.longestContentIdentifier ? $0 : nil }
    }
}
