import Glibc
import SystemPackage
import ThumbsCore

/// The decodes a process started and never finished because it died inside a decoder
/// (``/ThumbsStore/DecodeJournalFile/leftovers(in:)``), as the files the ``FailureMemo``
/// remembers ``/ThumbsCore/ImagingError/crashed`` failures of, so that those files are skipped
/// until they change.
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
