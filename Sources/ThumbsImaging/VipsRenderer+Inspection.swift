import ThumbsCore
import ThumbsRendering
import ThumbsSupport

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
