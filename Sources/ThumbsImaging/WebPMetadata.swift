/// Removes metadata chunks from an encoded WebP file.
///
/// libvips 8.14's webpsave writes an EXIF chunk even for an image without metadata and with
/// `strip` set: it builds one from the resolution and orientation. Thumbnails carry no metadata
/// in any format, so the chunks are taken out of the RIFF container after encoding, as
/// `webpmux -strip` does: EXIF, XMP and ICC profile chunks go, and the extended header's flags
/// for them are cleared. Everything else is kept byte for byte.
enum WebPMetadata {
    private static let metadataChunks: Set<String> = ["EXIF", "XMP ", "ICCP"]
    /// VP8X flag bits: ICC profile, EXIF, XMP.
    private static let metadataFlags: UInt8 = 0x20 | 0x08 | 0x04

    /// `bytes` without metadata chunks; `bytes` unchanged when they are not a well-formed WebP.
    static func stripping(_ bytes: [UInt8]) -> [UInt8] {
        guard bytes.count >= 12, fourCC(bytes, at: 0) == "RIFF", fourCC(bytes, at: 8) == "WEBP" else { return bytes }
        var output = Array(bytes[0..<12])
        var offset = 12
        while offset + 8 <= bytes.count {
            let name = fourCC(bytes, at: offset)
            let size =
                Int(bytes[offset + 4]) | Int(bytes[offset + 5]) << 8 | Int(bytes[offset + 6]) << 16
                | Int(bytes[offset + 7]) << 24
            let end = offset + 8 + size + (size & 1)
            guard end <= bytes.count || (end == bytes.count + 1 && size & 1 == 1) else { return bytes }
            if !metadataChunks.contains(name) {
                var chunk = Array(bytes[offset..<min(end, bytes.count)])
                if name == "VP8X", chunk.count > 8 { chunk[8] &= ~metadataFlags }
                output += chunk
            }
            offset = end
        }
        let riffSize = UInt32(output.count - 8)
        for index in 0..<4 { output[4 + index] = UInt8(truncatingIfNeeded: riffSize >> (8 * UInt32(index))) }
        return output
    }

    private static func fourCC(_ bytes: [UInt8], at offset: Int) -> String {
        String(decoding: bytes[offset..<offset + 4], as: UTF8.self)
    }
}
