/// What a file's content is recognised by wherever it lies: its fingerprint, which a rename or a
/// move keeps (so do `cp -p`, `rsync -a` and most backup tools, which carry the modification
/// time over), and a signature of its first and last bytes, which tells apart two files that
/// share a size and a time (a camera's uncompressed frames, files unpacked from one archive).
///
/// The cache recognises a photo that moved, was renamed or was copied by it, and gives the new
/// path the thumbnails and metadata of the old one without a render (see
/// `ThumbnailStore.adopt(_:)`). Two files with the same identity and different content would
/// need the same size, the same modification time to the nanosecond and the same bytes at both
/// ends: an edit in place that restores the time and changes only the middle of the file.
public struct ContentIdentity: Sendable, Hashable, CustomStringConvertible {
    public let fingerprint: FileFingerprint
    /// A 64-bit hash of the size, the first ``sampledBytes`` and the last ``sampledBytes`` (the
    /// whole file when it is smaller than both).
    public let signature: UInt64

    public init(fingerprint: FileFingerprint, signature: UInt64) {
        self.fingerprint = fingerprint
        self.signature = signature
    }

    /// How much of each end of a file the signature reads: a photo's headers (EXIF with its
    /// times, a HEIF's boxes) at the start, its last compressed data at the end.
    public static let sampledBytes = 16 << 10

    public var description: String { "\(fingerprint)#\(String(signature, radix: 16))" }
}
