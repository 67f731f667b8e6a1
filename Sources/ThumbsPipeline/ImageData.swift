import Foundation
import ThumbsCore
import ThumbsRendering

/// An asset's original file, as `requestImageData` gives it: mapped into memory rather than
/// copied, so asking for a 50 MB panorama costs address space, not 50 MB of heap, and only the
/// pages that are read come from the disk.
public struct ImageData: Sendable {
    /// The file's bytes, memory-mapped.
    public var bytes: Data
    /// What the bytes are, from their content.
    public var mediaType: MediaType
    /// The EXIF orientation to apply when showing them, when the file has one.
    public var orientation: Int?
    /// The file's size and modification time when it was mapped.
    public var fingerprint: FileFingerprint
}
