/// One image file directory of a TIFF structure (EXIF's IFD0 and Exif IFD, a MakerNote's own),
/// its entries by tag number, read from untrusted bytes: an entry is kept only when its value
/// lies wholly within them. A pointer to another directory is a value like any other;
/// ``makerNote(inEXIF:)`` follows exactly two, so a structure pointing at itself costs no loop.
package struct TIFFDirectory: Sendable {
    /// An entry's type (TIFF's field type number: 2 ASCII, 3 SHORT, 4 LONG…) and its value's
    /// bytes (all its values), in the structure's byte order.
    package struct Entry: Sendable {
        package let type: UInt16
        package let value: BoundedBytes

        /// An ASCII value up to its first NUL; nil for other types.
        package var string: String? {
            guard type == 2 else { return nil }
            return String(decoding: value.bytes.prefix { $0 != 0 }, as: UTF8.self)
        }

        /// The first value of an integer type (BYTE, SHORT, LONG, their signed kinds, IFD).
        package var integer: Int? {
            switch type {
            case 1: value.bytes.first.map(Int.init)
            case 6: value.bytes.first.map { Int(Int8(bitPattern: $0)) }
            case 3: value.uint16(at: 0).map(Int.init)
            case 8: value.uint16(at: 0).map { Int(Int16(bitPattern: $0)) }
            case 4, 13: value.uint32(at: 0).map(Int.init)
            case 9: value.uint32(at: 0).map { Int(Int32(bitPattern: $0)) }
            default: nil
            }
        }

        /// The first value of a rational type (RATIONAL, SRATIONAL), or of a FLOAT or DOUBLE; nil
        /// for other types, and for a rational over 0.
        package var number: Double? {
            switch type {
            case 5:
                guard let numerator = value.uint32(at: 0), let denominator = value.uint32(at: 4), denominator != 0
                else { return nil }
                return Double(numerator) / Double(denominator)
            case 10:
                guard let numerator = value.uint32(at: 0), let denominator = value.uint32(at: 4), denominator != 0
                else { return nil }
                return Double(Int32(bitPattern: numerator)) / Double(Int32(bitPattern: denominator))
            case 11: return value.uint32(at: 0).map { Double(Float(bitPattern: $0)) }
            case 12:
                guard let high = value.uint32(at: value.bigEndian ? 0 : 4),
                    let low = value.uint32(at: value.bigEndian ? 4 : 0)
                else { return nil }
                return Double(bitPattern: UInt64(high) << 32 | UInt64(low))
            default: return nil
            }
        }
    }

    package let entries: [UInt16: Entry]
    /// The offset of the next directory in the chain (IFD0's points to IFD1, the thumbnail's);
    /// nil at the end of the chain or where it does not fit.
    package let nextOffset: Int?

    /// The directory at `offset` in `bytes`, whose value offsets count from the start of
    /// `bytes`; nil when its entry table does not fit.
    package init?(in bytes: BoundedBytes, at offset: Int) {
        guard let count = bytes.uint16(at: offset).map(Int.init),
            bytes.range(at: offset + 2, count: count * 12) != nil
        else { return nil }
        var entries: [UInt16: Entry] = [:]
        for index in 0..<count {
            let start = offset + 2 + index * 12
            guard let tag = bytes.uint16(at: start), let type = bytes.uint16(at: start + 2),
                let count = bytes.uint32(at: start + 4).map(Int.init), let size = Self.valueSize(type)
            else { continue }
            let (length, overflow) = count.multipliedReportingOverflow(by: size)
            guard !overflow else { continue }
            let valueOffset = length <= 4 ? start + 8 : bytes.uint32(at: start + 8).map(Int.init)
            guard let valueOffset, let value = bytes.slice(at: valueOffset, count: length) else { continue }
            entries[tag] = Entry(
                type: type, value: BoundedBytes(Array(value), bigEndian: bytes.bigEndian))
        }
        self.entries = entries
        nextOffset = bytes.uint32(at: offset + 2 + count * 12).map(Int.init).flatMap { $0 == 0 ? nil : $0 }
    }

    package subscript(tag: UInt16) -> Entry? { entries[tag] }

    /// The bytes of one value of TIFF field type `type`; nil for a type TIFF does not define.
    private static func valueSize(_ type: UInt16) -> Int? {
        switch type {
        case 1, 2, 6, 7: 1
        case 3, 8: 2
        case 4, 9, 11, 13: 4
        case 5, 10, 12: 8
        default: nil
        }
    }
}

extension TIFFDirectory {
    /// The MakerNote (tag 0x927C of the Exif IFD, which IFD0's tag 0x8769 points to) of an EXIF
    /// block as libvips gives it: the TIFF structure after "Exif\0\0" (JPEG's APP1) or after
    /// the 4-byte offset HEIF's Exif item starts with, or the bare structure.
    package static func makerNote(inEXIF exif: [UInt8]) -> [UInt8]? {
        guard let tiff = tiffStructure(inEXIF: exif), let ifd0Offset = tiff.uint32(at: 4).map(Int.init),
            let exifOffset = TIFFDirectory(in: tiff, at: ifd0Offset)?[0x8769]?.integer,
            let makerNote = TIFFDirectory(in: tiff, at: exifOffset)?[0x927C]
        else { return nil }
        return makerNote.value.bytes
    }

    /// The TIFF structure inside an EXIF block, in its own byte order.
    package static func tiffStructure(inEXIF exif: [UInt8]) -> BoundedBytes? {
        let block = BoundedBytes(exif)
        let start: Int
        if block.matches("Exif\0\0".utf8, at: 0) {
            start = 6
        } else if block.matches("II".utf8, at: 0) || block.matches("MM".utf8, at: 0) {
            start = 0
        } else if let skip = block.uint32(at: 0).map(Int.init), skip <= exif.count {
            // HEIF's Exif item: the offset of the TIFF header after these 4 bytes, which may be
            // followed by "Exif\0\0".
            start = 4 + skip + (block.matches("Exif\0\0".utf8, at: 4 + skip) ? 6 : 0)
        } else {
            return nil
        }
        let tiff = Array(exif.dropFirst(start))
        let header = BoundedBytes(tiff)
        if header.matches("MM".utf8, at: 0), header.uint16(at: 2) == 42 { return BoundedBytes(tiff, bigEndian: true) }
        if header.matches("II".utf8, at: 0), header.uint16(at: 2) == 0x2A00 {
            return BoundedBytes(tiff, bigEndian: false)
        }
        return nil
    }
}
