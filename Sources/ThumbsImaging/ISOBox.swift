/// A box of an ISO base media file (HEIF, MP4, QuickTime): its type and the bytes it spans,
/// read from its header only.
package struct ISOBox: Sendable, Hashable {
    /// The four-character type ("ftyp", "moov", "mpvd"…).
    package let type: String
    /// Where the box's header starts.
    package let start: UInt64
    /// Where its contents start, after the header.
    package let contentStart: UInt64
    /// Where it ends (exclusive).
    package let end: UInt64

    package var contents: Range<UInt64> { contentStart..<end }

    /// The boxes one after another in `range` of `file`, stopping at the first whose header
    /// does not fit or which reaches past `range` (a file cut short or not of this format), and
    /// after `limit` boxes.
    package static func boxes(in file: FileBytes, range: Range<UInt64>, limit: Int = 1024) -> [ISOBox] {
        var boxes: [ISOBox] = []
        var position = range.lowerBound
        while boxes.count < limit, range.upperBound - position >= 8 {
            let header = file.read(at: position, count: 16)
            guard let size32 = header.uint32(at: 0), let type = header.slice(at: 4, count: 4) else { break }
            let headerLength: UInt64 = size32 == 1 ? 16 : 8
            let size: UInt64?
            switch size32 {
            case 0: size = range.upperBound - position
            case 1: size = header.uint64(at: 8)
            default: size = UInt64(size32)
            }
            guard let size, size >= headerLength, size <= range.upperBound - position else { break }
            boxes.append(
                ISOBox(
                    type: String(decoding: type, as: UTF8.self), start: position,
                    contentStart: position + headerLength, end: position + size))
            position += size
        }
        return boxes
    }

    /// The first box of `type` among the boxes in `range` of `file`.
    package static func first(_ type: String, in file: FileBytes, range: Range<UInt64>) -> ISOBox? {
        boxes(in: file, range: range).first { $0.type == type }
    }
}
