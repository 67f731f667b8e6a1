import Glibc
import SystemPackage
import ThumbsCore
import ThumbsRendering
import ThumbsStore
import ThumbsSupport

/// The decodes a process started and never finished because it died inside a decoder
/// (``/ThumbsStore/DecodeJournalFile/leftovers(in:)``), remembered as
/// ``/ThumbsCore/ImagingError/crashed`` failures of the files' versions, so that those files
/// are skipped until they change.
extension Asset {
    /// The file of a crashed decode at `location`, as an asset of no media type: at the version
    /// noted, or for a header read by the walk (noted without one) at its version now. Nil for a
    /// file that is gone.
    public init?(crashedDecodeAt location: ImageLocation) {
        guard let fingerprint = location.expectedFingerprint ?? Self.currentFingerprint(of: location) else {
            return nil
        }
        self.init(
            root: location.root.string, relativeFilePath: location.relativePath, mediaType: .unsupported,
            fingerprint: fingerprint)
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

extension ThumbnailStore {
    /// Remembers each of `locations` as a crashed decode of its file (see
    /// ``/ThumbsLibrary/Asset/init(crashedDecodeAt:)``). Returns the failures recorded.
    @discardableResult
    public func recordCrashedDecodes(_ locations: [ImageLocation]) async throws -> [FailureEntry] {
        let entries = locations.compactMap(Asset.init(crashedDecodeAt:)).map { file in
            FailureEntry(assetID: file.id, fingerprint: file.fingerprint, failure: FailureRecord(.crashed))
        }
        try await recordFailures(entries)
        return entries
    }
}
