import Foundation

/// A photo's EXIF block (a JPEG's APP1 payload) read without libvips: the fields Thumbs keeps of
/// a photo, each as libvips gives it (``VipsImageHandle/exifString(_:)``: the value up to " (",
/// trimmed, nil when empty), and the thumbnail IFD1 holds. Values are kept only where they lie
/// wholly within the block (``TIFFDirectory``).
struct EXIFBlock: Sendable {
    /// The block as stored, which ``AppleMakerNote`` reads.
    let bytes: [UInt8]
    private let ifd0: TIFFDirectory
    private let exif: TIFFDirectory?
    private let ifd1: TIFFDirectory?
    private let tiff: BoundedBytes

    init?(_ bytes: [UInt8]) {
        guard let tiff = TIFFDirectory.tiffStructure(inEXIF: bytes), let ifd0Offset = tiff.uint32(at: 4).map(Int.init),
            let ifd0 = TIFFDirectory(in: tiff, at: ifd0Offset)
        else { return nil }
        self.bytes = bytes
        self.tiff = tiff
        self.ifd0 = ifd0
        exif = ifd0[0x8769]?.integer.flatMap { TIFFDirectory(in: tiff, at: $0) }
        // A chain pointing back at IFD0 is no thumbnail directory.
        ifd1 = ifd0.nextOffset.flatMap { $0 == ifd0Offset ? nil : TIFFDirectory(in: tiff, at: $0) }
    }

    /// IFD0's orientation (1...8), 1 when the tag holds anything else, as libvips reads it; nil
    /// without the tag.
    var orientation: Int? {
        guard let entry = ifd0[0x0112] else { return nil }
        return entry.integer.flatMap { (1...8).contains($0) ? $0 : nil } ?? 1
    }
    var make: String? { Self.text(ifd0[0x010F]?.string) }
    var model: String? { Self.text(ifd0[0x0110]?.string) }
    var dateTimeOriginal: String? { Self.text(exif?[0x9003]?.string) }
    var offsetTimeOriginal: String? { Self.text(exif?[0x9011]?.string) }

    /// The user comment as libexif reads it: ASCII text, stored as such or after the 8-byte
    /// "ASCII" character code the specification asks for; nil for other codes.
    var userComment: String? {
        guard let entry = exif?[0x9286] else { return nil }
        if let text = entry.string { return Self.text(text) }
        let value = entry.value.bytes
        guard value.starts(with: Array("ASCII\0\0\0".utf8)) else { return nil }
        return Self.text(String(decoding: value.dropFirst(8).prefix { $0 != 0 }, as: UTF8.self))
    }

    /// The JPEG thumbnail IFD1 points to (JPEGInterchangeFormat and its length), when it lies
    /// within the block.
    var thumbnail: [UInt8]? {
        guard let offset = ifd1?[0x0201]?.integer, let length = ifd1?[0x0202]?.integer, length > 0,
            let bytes = tiff.slice(at: offset, count: length)
        else { return nil }
        return Array(bytes)
    }

    /// `value` as libvips' EXIF strings give it: libvips writes "value (value, ASCII, n
    /// components, n bytes)", of which Thumbs keeps the leading value, trimmed; nil when empty.
    static func text(_ value: String?) -> String? {
        guard let value else { return nil }
        let leading = value.range(of: " (").map { String(value[..<$0.lowerBound]) } ?? value
        let trimmed = leading.trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.isEmpty ? nil : trimmed
    }
}
