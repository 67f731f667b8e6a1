import ThumbsSupport

/// What enumeration learns about a file: its type from the content and, for images, the header.
public struct Inspection: Sendable, Hashable {
    public var mediaType: MediaType
    /// Size and modification time before the file was read.
    public var fingerprint: FileFingerprint
    /// The header, for images whose header could be read.
    public var properties: ImageProperties?
    /// Why an image's header could not be read.
    public var problem: ImagingError?
    /// Whether the file changed while it was read (its details are then not to be trusted).
    public var changedWhileRead: Bool
}

extension VipsRenderer {
    /// Sniffs the file and, for an image, probes its header; never throws for bad content, only
    /// for a file that cannot be read at all.
    package func inspect(_ path: String) throws(ImagingError) -> Inspection {
        let before = try FileFingerprint(path: path)
        let type =
            before.size == 0
            ? MediaType.unsupported
            : MediaType(sniffing: try ImageSource.readPrefix(of: path, count: MediaType.sniffLength), fileName: path)
        var inspection = Inspection(
            mediaType: type, fingerprint: before, properties: nil, problem: nil,
            changedWhileRead: false)
        if type.isImage {
            do throws(ImagingError) {
                inspection.properties = try probe(path)
            } catch {
                inspection.problem = error
            }
        }
        let after = try? FileFingerprint(path: path)
        inspection.changedWhileRead =
            after != before || (inspection.properties.map { $0.fingerprint != before } ?? false)
        return inspection
    }
}

extension ThumbnailRenderer {
    /// The media type of a file from its content and, for images, what the header says,
    /// without decoding pixels. Throws only when the file cannot be read at all.
    public func inspect(_ path: String) async throws -> Inspection {
        let core = core
        return try await pool.run { try core.inspect(path) }
    }
}
