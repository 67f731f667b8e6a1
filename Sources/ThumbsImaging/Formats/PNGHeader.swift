import ThumbsCore

/// What a PNG's chunks say before its pixels, read in Swift from the chunk headers (no codec):
/// the IHDR's size, bit depth, colour type and interlacing, and which chunks come before the
/// first IDAT. Enough to tell whether libpng alone renders the file as libvips would
/// (``isDirect``), before any process hands the file to a decoder.
package struct PNGHeader: Sendable {
    /// The picture's size (a PNG has no orientation but its eXIf chunk's).
    package let storedSize: PixelSize
    package let bitDepth: Int
    /// 0 grey, 2 RGB, 3 palette, 4 grey and alpha, 6 RGBA.
    package let colourType: Int
    package let isInterlaced: Bool
    /// The types of the chunks between IHDR and the first IDAT, in order.
    package let chunks: [String]
    /// Where the first iCCP chunk's data is, and its length.
    package let iccpChunk: (offset: UInt64, length: Int)?

    /// The most chunks read before IDAT: libvips keeps at most 100 ancillary chunks.
    package static let chunksRead = 256
    /// libvips keeps a PNG's first 50 text chunks.
    private static let textChunksKept = 50

    /// The header of the PNG `bytes` holds; nil when it is not a PNG whose IHDR and chunk
    /// headers up to the first IDAT can be read.
    package init?(in bytes: FileBytes) {
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        let ihdr = bytes.read(at: 8, count: 8 + 13)
        guard bytes.read(at: 0, count: 8).bytes == signature, ihdr.matches("IHDR".utf8, at: 4),
            ihdr.uint32(at: 0) == 13, let width = ihdr.uint32(at: 8), let height = ihdr.uint32(at: 12),
            width > 0, height > 0, let depth = ihdr.slice(at: 16, count: 1)?.first,
            let colour = ihdr.slice(at: 17, count: 1)?.first, let interlace = ihdr.slice(at: 20, count: 1)?.first
        else { return nil }
        var chunks: [String] = []
        var iccpChunk: (offset: UInt64, length: Int)?
        var offset: UInt64 = 8 + 12 + 13
        while chunks.count < Self.chunksRead {
            let chunk = bytes.read(at: offset, count: 8)
            guard let length = chunk.uint32(at: 0), let type = chunk.slice(at: 4, count: 4) else { return nil }
            let name = String(decoding: type, as: UTF8.self)
            if name == "IDAT" { break }
            if name == "iCCP" && iccpChunk == nil { iccpChunk = (offset + 8, Int(length)) }
            chunks.append(name)
            offset += 12 + UInt64(length)
        }
        guard chunks.count < Self.chunksRead else { return nil }
        storedSize = PixelSize(width: Int(width), height: Int(height))
        bitDepth = Int(depth)
        colourType = Int(colour)
        isInterlaced = interlace == 1
        self.chunks = chunks
        self.iccpChunk = iccpChunk
    }

    /// Whether libpng renders the picture as libvips' loader does, without libvips
    /// (`CPNGDecoder`): grey of up to 8 bits, 8- or 16-bit RGB or palette colour, with or without
    /// alpha (a band, or a tRNS chunk); no eXIf chunk (EXIF fields and an orientation, which
    /// libvips parses) or more text chunks than libvips keeps.
    package var isDirect: Bool {
        let colour =
            switch colourType {
            case 0, 3, 4: bitDepth <= 8
            case 2, 6: bitDepth == 8 || bitDepth == 16
            default: false
            }
        return colour && !chunks.contains("eXIf")
            && chunks.count { ["tEXt", "zTXt", "iTXt"].contains($0) } <= Self.textChunksKept
    }

    /// Whether the picture has alpha: a band of its own, or a tRNS chunk's (which libpng may
    /// still drop as invalid).
    package var hasAlpha: Bool { colourType == 4 || colourType == 6 || chunks.contains("tRNS") }

    /// The bands of the picture libpng decodes for the direct path: 1 for grey, 3 for the rest,
    /// and one more for alpha.
    package var bands: Int { ([0, 4].contains(colourType) ? 1 : 3) + (hasAlpha ? 1 : 0) }
}
