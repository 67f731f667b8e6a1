import Glibc
import ThumbsImaging
import ThumbsStore
import ThumbsSupport

extension ThumbnailStore {
    /// Remembers each of `locations`, decodes a process started and never finished (it died
    /// inside a decoder: ``/ThumbsStore/DecodeJournalFile/leftovers(in:)``), as a
    /// ``/ThumbsImaging/ImagingError/crashed`` failure of the file's version, so that the file
    /// is skipped until it changes. A location noted without its version (a header read by the
    /// walk) is taken at its version now; one that is gone is left out. Returns the failures
    /// recorded.
    @discardableResult
    public func recordCrashedDecodes(_ locations: [ImageLocation]) async throws -> [FailureEntry] {
        let entries = locations.compactMap { location -> FailureEntry? in
            guard let fingerprint = location.expectedFingerprint ?? Self.currentFingerprint(of: location) else {
                return nil
            }
            return FailureEntry(
                assetID: AssetID.make(root: location.root.string, relativeFilePath: location.relativePath),
                fingerprint: fingerprint, failure: FailureRecord(.crashed))
        }
        try await recordFailures(entries)
        return entries
    }

    private static func currentFingerprint(of location: ImageLocation) -> FileFingerprint? {
        var info = stat()
        guard location.root.appending(location.relativePath.components).withPlatformString({ stat($0, &info) }) == 0
        else { return nil }
        return FileFingerprint(
            size: UInt64(max(0, info.st_size)),
            modificationTimeNanoseconds: FileFingerprint.modificationTimeNanoseconds(of: info))
    }
}
