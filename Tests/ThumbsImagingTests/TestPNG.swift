/// A PNG written here sample by sample, for the PNG direct path's tests: grey (1 to 16 bits),
/// RGB (8 or 16) or palette colour, with alpha or without, Adam7-interlaced or not, with chunks
/// of the test's own after IHDR, its picture data in stored (uncompressed) deflate blocks, every
/// row unfiltered. The samples are a gradient under fine noise, so that a resize's every tap
/// shows; alpha is that too, but for a transparent band on the left and an opaque one on top.
struct TestPNG {
    enum Colour { case grey, rgb, palette, greyAlpha, rgba }

    var width: Int
    var height: Int
    var colour: Colour
    var bitDepth = 8
    var interlaced = false
    /// Whole chunks (``PNGHandlerTests/chunk(_:_:)``), written after IHDR.
    var chunks: [[UInt8]] = []
    /// The data of a tRNS chunk, written after the palette (or where the palette would be).
    var transparency: [UInt8]?

    /// Adam7's passes: the first column and row, and the steps across and down.
    private static let passes = [
        (0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2),
    ]

    /// Sample `channel` of pixel (`x`, `y`), of `bitDepth` bits (a palette index for palette
    /// colour).
    func sample(x: Int, y: Int, channel: Int) -> Int {
        if [.greyAlpha, .rgba].contains(colour) && channel == channels - 1 && (x < width / 5 || y < height / 5) {
            return x < width / 5 ? 0 : (1 << bitDepth) - 1
        }
        let noise = ((x &* 73_856_093) ^ (y &* 19_349_663) ^ (channel &* 83_492_791)) >> 4 & 0xFFFF
        let gradient = (x * 200 / width + y * 200 / height) / 2 + channel * 20
        let level = min(255, max(0, gradient + noise % 56))
        switch bitDepth {
        case 16: return level * 256 + (noise >> 8)
        case 8: return level
        default: return level >> (8 - bitDepth)
        }
    }

    private var channels: Int {
        switch colour {
        case .grey, .palette: 1
        case .greyAlpha: 2
        case .rgb: 3
        case .rgba: 4
        }
    }

    /// One row of `count` pixels from column `x0` by `step`, packed as the PNG stores it, after
    /// its filter byte (none).
    private func row(y: Int, from x0: Int, step: Int, count: Int) -> [UInt8] {
        var bits: [Int] = []
        for index in 0..<count {
            for channel in 0..<channels { bits.append(sample(x: x0 + index * step, y: y, channel: channel)) }
        }
        var bytes: [UInt8] = [0]
        switch bitDepth {
        case 16: bytes += bits.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        case 8: bytes += bits.map { UInt8($0) }
        default:
            let perByte = 8 / bitDepth
            for start in stride(from: 0, to: bits.count, by: perByte) {
                var byte = 0
                for (slot, value) in bits[start..<min(bits.count, start + perByte)].enumerated() {
                    byte |= value << (8 - bitDepth * (slot + 1))
                }
                bytes.append(UInt8(byte))
            }
        }
        return bytes
    }

    /// The picture data: every row, pass by pass when interlaced.
    private func pictureData() -> [UInt8] {
        guard interlaced else { return (0..<height).flatMap { row(y: $0, from: 0, step: 1, count: width) } }
        return Self.passes.flatMap { x0, y0, across, down -> [UInt8] in
            let count = (width - x0 + across - 1) / across
            guard count > 0, y0 < height else { return [] }
            return stride(from: y0, to: height, by: down).flatMap { row(y: $0, from: x0, step: across, count: count) }
        }
    }

    func encoded() throws -> [UInt8] {
        let colourType: UInt8 =
            switch colour {
            case .grey: 0
            case .rgb: 2
            case .palette: 3
            case .greyAlpha: 4
            case .rgba: 6
            }
        let header =
            PNGHandlerTests.bigEndian(UInt32(width)) + PNGHandlerTests.bigEndian(UInt32(height))
            + [UInt8(bitDepth), colourType, 0, 0, interlaced ? 1 : 0]
        // A palette of 256 colours, index i a colour of its own.
        var palette: [[UInt8]] = []
        if colour == .palette {
            let entries: [[UInt8]] = (0..<256).map { index in
                [UInt8(index), UInt8(index * 7 % 256), UInt8(255 - index)]
            }
            palette = [PNGHandlerTests.chunk("PLTE", entries.flatMap { $0 })]
        }
        let chunks =
            [PNGHandlerTests.chunk("IHDR", header)] + chunks + palette
            + (transparency.map { [PNGHandlerTests.chunk("tRNS", $0)] } ?? []) + [
                PNGHandlerTests.chunk("IDAT", Self.zlibStored(pictureData())), PNGHandlerTests.chunk("IEND", []),
            ]
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunks.flatMap { $0 }
    }

    /// `bytes` as a zlib stream of stored deflate blocks, with its Adler-32.
    static func zlibStored(_ bytes: [UInt8]) -> [UInt8] {
        var stream: [UInt8] = [0x78, 0x01]
        let blocks = stride(from: 0, to: max(1, bytes.count), by: 65535).map { $0..<min(bytes.count, $0 + 65535) }
        for (index, block) in blocks.enumerated() {
            let length = UInt16(block.count)
            stream += [index == blocks.count - 1 ? 1 : 0, UInt8(length & 0xFF), UInt8(length >> 8)]
            stream += [UInt8(~length & 0xFF), UInt8(~length >> 8)] + bytes[block]
        }
        var a: UInt32 = 1
        var b: UInt32 = 0
        for byte in bytes {
            a = (a + UInt32(byte)) % 65521
            b = (b + a) % 65521
        }
        return stream + PNGHandlerTests.bigEndian(b << 16 | a)
    }
}
