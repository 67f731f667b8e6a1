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

    package init(
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

extension VipsRenderer {
    /// Sniffs the file and, for an asset, probes its header; never throws for bad content, only
    /// for a file that cannot be read at all.
    package func inspect(_ location: ImageLocation) throws(ImagingError) -> Inspection {
        var unchecked = location
        unchecked.expectedFingerprint = nil
        return try inspect(try ImageSource(opened: unchecked))
    }

    /// As ``inspect(_:)-(ImageLocation)``, of a file already opened (of any type).
    package func inspect(_ source: ImageSource) throws(ImagingError) -> Inspection {
        var inspection = Inspection(
            mediaType: source.mediaType, fingerprint: source.fingerprint, properties: nil, problem: nil,
            changedWhileRead: false)
        if source.mediaType.isAsset {
            do throws(ImagingError) {
                inspection.properties = try probe(source)
            } catch {
                inspection.problem = error
            }
        }
        let after = try? FileFingerprint(descriptor: source.descriptor)
        inspection.changedWhileRead =
            after != source.fingerprint
            || (inspection.properties.map { $0.fingerprint != source.fingerprint } ?? false)
        return inspection
    }

    /// ``inspect(_:)-(ImageLocation)`` of a file named on its own.
    package func inspect(_ path: String) throws(ImagingError) -> Inspection {
        try inspect(ImageLocation(path: path))
    }
}

extension ThumbnailRenderer {
    /// The media type of a file from its content and, for assets, what the header says,
    /// without decoding pixels. Throws only when the file cannot be read at all.
    public func inspect(_ path: String) async throws -> Inspection {
        try await inspect(ImageLocation(path: path))
    }

    /// As ``inspect(_:)-(String)``, for a file beneath a library root.
    public func inspect(_ location: ImageLocation) async throws -> Inspection {
        let core = core
        return try await pool.run { [self] in
            try noted(location) { () throws(ImagingError) in try core.inspect(location) }
        }
    }
}
