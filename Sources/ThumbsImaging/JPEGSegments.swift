import ThumbsCore

/// The marker segments of a JPEG's header, read from their lengths through the file's
/// descriptor: each segment's marker and the first bytes of its payload, up to the start of scan
/// (where entropy-coded data begins). Reading stops at the first segment that does not fit or
/// is not a marker, and after ``largestCount``.
package struct JPEGSegments: Sendable {
    package struct Segment: Sendable {
        /// The marker's second byte (0xE1 APP1, 0xE2 APP2…).
        package let marker: UInt8
        /// The payload's first bytes (at most ``JPEGSegments/prefixLength``).
        package let prefix: BoundedBytes
        /// Where the payload starts in the file, and its length: all of it lies within the file.
        package let payloadOffset: UInt64
        package let payloadLength: Int
    }

    /// The most segments read: a header has a few dozen.
    package static let largestCount = 256
    /// How much of each payload is read: enough for any signature.
    package static let prefixLength = 64

    package let segments: [Segment]

    package init(in file: FileBytes) {
        var segments: [Segment] = []
        guard file.read(at: 0, count: 2).matches([0xFF, 0xD8], at: 0) else {
            self.segments = []
            return
        }
        var position: UInt64 = 2
        while segments.count < Self.largestCount {
            let header = file.read(at: position, count: 4)
            guard header.bytes.first == 0xFF, let marker = header.bytes.dropFirst().first, marker != 0xDA,
                marker != 0xD9, let length = header.uint16(at: 2).map(UInt64.init), length >= 2,
                position + 2 + length <= file.size
            else { break }
            segments.append(
                Segment(
                    marker: marker, prefix: file.read(at: position + 4, count: min(Self.prefixLength, Int(length) - 2)),
                    payloadOffset: position + 4, payloadLength: Int(length) - 2))
            position += 2 + length
        }
        self.segments = segments
    }

    /// Whether an APP2 segment carries ISO 21496-1 gain-map metadata (in a primary picture, its
    /// version): the picture is the SDR half of a gain-map pair.
    package var hasGainMapMetadata: Bool {
        segments.contains { $0.marker == 0xE2 && $0.prefix.matches(UltraHDRJPEG.iso21496Signature, at: 0) }
    }
}
