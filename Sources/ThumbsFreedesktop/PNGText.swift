/// The text chunks (`tEXt`) of a PNG file, where the desktop's thumbnail cache keeps what a
/// thumbnail was made from (`Thumb::URI`, `Thumb::MTime`…).
///
/// ```swift
/// let tagged = try PNGText.inserting(["Thumb::URI": uri], into: png)
/// PNGText.fields(of: tagged)?["Thumb::URI"]  // uri
/// ```
public enum PNGText {
    /// Why text could not be added to a PNG.
    public enum Failure: Error, Sendable, Hashable {
        /// The bytes do not start with a PNG signature and an `IHDR` chunk.
        case notPNG
        /// A keyword or a value holds a character outside Latin-1, or a keyword is empty,
        /// longer than 79 bytes or holds a NUL.
        case notLatin1(String)
    }

    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// `png` with one `tEXt` chunk per field placed right after its header, in the order given,
    /// so that a reader finds them before the image data.
    public static func inserting(_ fields: [(key: String, value: String)], into png: [UInt8]) throws(Failure)
        -> [UInt8]
    {
        // The signature, then IHDR: length 13, type, 13 bytes, CRC.
        let headerEnd = signature.count + 25
        guard png.count >= headerEnd, png.starts(with: signature), png[12..<16].elementsEqual(Array("IHDR".utf8))
        else { throw .notPNG }
        var chunks: [UInt8] = []
        for (key, value) in fields {
            guard let keyword = latin1(key), (1...79).contains(keyword.count), !keyword.contains(0) else {
                throw .notLatin1(key)
            }
            guard let text = latin1(value), !text.contains(0) else { throw .notLatin1(value) }
            appendChunk(type: "tEXt", data: keyword + [0] + text, to: &chunks)
        }
        return Array(png[..<headerEnd]) + chunks + png[headerEnd...]
    }

    /// The text fields of `png` (the first value of a key that repeats), or nil unless it is a
    /// whole PNG: the signature, chunks whose CRC checks, the image data and the end chunk.
    /// A reader loads only a whole file, so a thumbnail cut short is no thumbnail.
    public static func fields(of png: [UInt8]) -> [String: String]? {
        guard png.starts(with: signature) else { return nil }
        var fields: [String: String] = [:]
        var offset = signature.count
        var sawImageData = false
        while offset + 12 <= png.count {
            let length = Int(bigEndian32(png, at: offset))
            guard length <= png.count - offset - 12 else { return nil }
            let typeAndData = png[(offset + 4)..<(offset + 8 + length)]
            guard crc32(typeAndData) == bigEndian32(png, at: offset + 8 + length) else { return nil }
            let type = String(decoding: typeAndData.prefix(4), as: UTF8.self)
            let data = typeAndData.dropFirst(4)
            switch type {
            case "tEXt":
                if let separator = data.firstIndex(of: 0) {
                    let key = String(data[..<separator].map { Character(Unicode.Scalar($0)) })
                    let value = String(data[(separator + 1)...].map { Character(Unicode.Scalar($0)) })
                    if fields[key] == nil { fields[key] = value }
                }
            case "IDAT":
                sawImageData = true
            case "IEND":
                return sawImageData ? fields : nil
            default:
                break
            }
            offset += 12 + length
        }
        return nil
    }

    private static func latin1(_ text: String) -> [UInt8]? {
        var bytes: [UInt8] = []
        for scalar in text.unicodeScalars {
            guard scalar.value < 256 else { return nil }
            bytes.append(UInt8(scalar.value))
        }
        return bytes
    }

    private static func appendChunk(type: String, data: [UInt8], to bytes: inout [UInt8]) {
        let typeAndData = Array(type.utf8) + data
        appendBigEndian32(UInt32(data.count), to: &bytes)
        bytes += typeAndData
        appendBigEndian32(crc32(typeAndData[...]), to: &bytes)
    }

    private static func bigEndian32(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        bytes[offset..<offset + 4].reduce(0) { $0 << 8 | UInt32($1) }
    }

    private static func appendBigEndian32(_ value: UInt32, to bytes: inout [UInt8]) {
        bytes += [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    /// PNG's CRC (ISO 3309, the one zlib computes), over a chunk's type and data.
    static func crc32(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes { crc = crcTable[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return crc ^ 0xFFFF_FFFF
    }

    private static let crcTable: [UInt32] = (0..<256).map { index in
        (0..<8).reduce(UInt32(index)) { crc, _ in crc & 1 == 1 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
    }
}
