import ThumbsCore
import ThumbsSupport

/// What enumeration learns about a file: its type from the content and, for assets (images,
/// camera RAW, videos), the header.
public struct Inspection: Sendable, Hashable {
    public var mediaType: MediaType
    /// Size and modification time before the file was read.
    public var fingerprint: FileFingerprint
    /// The header, for assets whose header could be read.
    public var properties: ImageProperties?
    /// Why an asset's header could not be read.
    public var problem: ImagingError?
    /// Whether the file changed while it was read (its details are then not to be trusted).
    public var changedWhileRead: Bool

    public init(
        mediaType: MediaType, fingerprint: FileFingerprint, properties: ImageProperties?, problem: ImagingError?,
        changedWhileRead: Bool
    ) {
        self.mediaType = mediaType
        self.fingerprint = fingerprint
        self.properties = properties
        self.problem = problem
        self.changedWhileRead = changedWhileRead
    }
}
