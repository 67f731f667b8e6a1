import ThumbsCore

/// What a JPEG's header says that planning its thumbnail needs, read from its marker segments
/// (``JPEGSegments``) without libvips: the frame's size and components from its SOF segment,
/// whether it is progressive, how its chroma is subsampled, and the EXIF orientation.
///
/// Only the frames libjpeg-turbo decodes at a DCT scale are described: 8-bit baseline, extended
/// or progressive Huffman frames of one or three components. Anything else (arithmetic coding,
/// lossless, 12-bit, CMYK, a height left to a DNL segment) has no header here, and libvips reads
/// the file.
package struct JPEGHeader: Sendable {
    /// The frame's size, as stored (before orientation).
    package let storedSize: PixelSize
    /// 1 (grey) or 3 (YCbCr, or RGB).
    package let components: Int
    /// Whether the frame is progressive (SOF2): libjpeg then keeps every coefficient of it.
    package let isProgressive: Bool
    /// The samples of all components per pixel: 3 without subsampling, 1.5 for 4:2:0.
    package let samplesPerPixel: Double
    /// The EXIF block (the first APP1 segment that holds one, as libvips keeps the first).
    let exif: EXIFBlock?
    /// The XMP packet's segment (the first APP1 segment that starts "http", libvips' rule).
    private let xmpSegment: JPEGSegments.Segment?
    /// The APP2 segments that hold the parts of an ICC profile.
    private let iccSegments: [JPEGSegments.Segment]

    /// The EXIF orientation (1...8): 1 when the file states none or one out of range, as libvips
    /// reads it.
    package var orientation: Int { exif?.orientation ?? 1 }

    /// The size as displayed, after the orientation.
    package var uprightSize: PixelSize { orientation >= 5 ? storedSize.transposed : storedSize }

    /// The header of the JPEG `bytes` holds; nil when it is not one described here.
    package init?(in bytes: FileBytes) {
        let segments = JPEGSegments(in: bytes).segments
        // SOF0 baseline, SOF1 extended, SOF2 progressive: the Huffman-coded DCT frames.
        guard
            let frame = segments.first(where: {
                (0xC0...0xCF).contains($0.marker) && ![0xC4, 0xC8, 0xCC].contains($0.marker)
            }),
            [0xC0, 0xC1, 0xC2].contains(frame.marker)
        else { return nil }
        let sof = frame.prefix
        guard sof.bytes.first == 8, let height = sof.uint16(at: 1).map(Int.init),
            let width = sof.uint16(at: 3).map(Int.init), height > 0, width > 0,
            let components = sof.bytes.dropFirst(5).first.map(Int.init), [1, 3].contains(components),
            let sampling = Self.samplingFactors(sof, components: components)
        else { return nil }
        let largest = sampling.map { $0.across * $0.down }.max() ?? 1
        storedSize = PixelSize(width: width, height: height)
        self.components = components
        isProgressive = frame.marker == 0xC2
        samplesPerPixel = sampling.reduce(0) { $0 + Double($1.across * $1.down) / Double(largest) }
        let app1 = segments.filter { $0.marker == 0xE1 && $0.payloadLength > 4 }
        exif = app1.first { $0.prefix.matches("Exif".utf8, at: 0) }.flatMap {
            EXIFBlock(bytes.read(at: $0.payloadOffset, count: $0.payloadLength).bytes)
        }
        xmpSegment = app1.first { $0.prefix.matches("http".utf8, at: 0) }
        iccSegments = segments.filter { $0.marker == 0xE2 && $0.prefix.matches("ICC_PROFILE\0".utf8, at: 0) }
    }

    /// Whether the file embeds an ICC profile.
    var hasICCProfile: Bool { !iccSegments.isEmpty }

    /// The ICC profile, its parts read from `bytes` and joined as libvips joins them: in the
    /// order of their sequence numbers, up to the first one missing.
    package func iccProfile(in bytes: FileBytes) -> [UInt8] {
        var parts: [Int: [UInt8]] = [:]
        for segment in iccSegments where segment.payloadLength > 14 {
            guard let sequence = segment.prefix.bytes.dropFirst(12).first, sequence > 0 else { continue }
            parts[Int(sequence) - 1] =
                bytes.read(at: segment.payloadOffset + 14, count: segment.payloadLength - 14).bytes
        }
        return (0..<parts.count).prefix { parts[$0] != nil }.flatMap { parts[$0] ?? [] }
    }

    /// The XMP packet's segment as libvips keeps it, read from `bytes`.
    func xmp(in bytes: FileBytes) -> [UInt8]? {
        xmpSegment.map { bytes.read(at: $0.payloadOffset, count: $0.payloadLength).bytes }
    }

    /// Each component's horizontal and vertical sampling factors (1...4), from the SOF payload.
    private static func samplingFactors(
        _ sof: BoundedBytes, components: Int
    ) -> [(across: Int, down: Int)]? {
        var factors: [(across: Int, down: Int)] = []
        for index in 0..<components {
            guard let byte = sof.slice(at: 6 + index * 3 + 1, count: 1)?.first else { return nil }
            let across = Int(byte >> 4), down = Int(byte & 0x0F)
            guard (1...4).contains(across), (1...4).contains(down) else { return nil }
            factors.append((across, down))
        }
        return factors
    }
}
