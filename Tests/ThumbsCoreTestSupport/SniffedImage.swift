/// Files that are images by their first bytes only: what a renderer that decodes nothing
/// (ThumbsTesting's `InMemoryRenderer`) takes for photos, written without a codec.
package enum SniffedImage {
    /// A JPEG's start-of-image and APP0 markers, then `length` filler bytes in all: a photo to
    /// content sniffing, nothing to decode. Files of different lengths are different versions
    /// (a fingerprint holds the size).
    package static func jpeg(length: Int = 64) -> [UInt8] {
        let start: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0]
        return start + [UInt8](repeating: 0, count: max(0, length - start.count))
    }

    /// The first bytes of an MP4 file: a video to content sniffing, nothing to decode.
    package static let mp4: [UInt8] =
        [0, 0, 0, 20] + Array("ftypisom\0\0\u{2}\0isommp41".utf8) + Array(repeating: 0, count: 64)
}
