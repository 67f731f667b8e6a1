import ThumbsCore
import ThumbsStore

/// The failures the store remembers (its `failures` database), read and written here alone: a
/// file whose render failed for its content, or whose decode killed a process, is not decoded
/// again until it changes, as the freedesktop thumbnail spec's `fail/` folder keeps it. Each
/// failure is remembered for one version of a file (its ``/ThumbsCore/FileFingerprint``), so a
/// file changed since is tried again.
///
/// The warm and the watch (through the store's warm output), `CachingImageManager` (`thumbs get`,
/// `thumbs serve`), the library's walk and the recovery of crashed decodes when a cache is opened
/// all go through it.
///
/// ```swift
/// let memo = FailureMemo(store: store)
/// if let failure = try memo.failure(of: asset) { showBroken(failure.kind) }
/// ```
public struct FailureMemo: Sendable {
    public let store: ThumbnailStore

    public init(store: ThumbnailStore) {
        self.store = store
    }

    /// Whether a render of the file at `fingerprint` that failed with `error` is remembered: a
    /// failure of the file's content, not of the machine or the moment, nor a decode that ended
    /// early of a file that may still be being copied in (``/ThumbsCore/ImagingError/mayPass(for:)``).
    public static func remembers(_ error: ImagingError, for fingerprint: FileFingerprint) -> Bool {
        !error.mayPass(for: fingerprint)
    }

    /// The failure remembered for `asset`'s file as it is now; nil when this version has none.
    public func failure(of asset: Asset) throws(StoreError) -> FailureRecord? {
        try store.failure(for: asset.id, fingerprint: asset.fingerprint)
    }

    /// Remembers that `asset`'s file failed to render with `error`, unless the failure is not
    /// worth remembering (``remembers(_:for:)``). Returns whether it was remembered.
    @discardableResult
    public func remember(_ error: ImagingError, of asset: Asset) async throws -> Bool {
        guard Self.remembers(error, for: asset.fingerprint) else { return false }
        try await remember(FailureRecord(error), of: asset)
        return true
    }

    /// Remembers `failure` for `asset`'s file as it is now: a failure already judged worth
    /// remembering (by ``remembers(_:for:)``, or kept by another place a warm writes to),
    /// replacing what was remembered for other versions of the file.
    public func remember(_ failure: FailureRecord, of asset: Asset) async throws {
        try await store.recordFailures([
            ThumbnailStore.FailureEntry(assetID: asset.id, fingerprint: asset.fingerprint, failure: failure)
        ])
    }

    /// Remembers the decodes at `locations` as ``/ThumbsCore/ImagingError/crashed`` failures of
    /// their files (``crashedFiles(at:)``), in one transaction: the leftovers of a process that
    /// died inside a decoder (`DecodeJournalFile.leftovers(in:)`), or headers that killed a render
    /// worker. Returns the files remembered.
    @discardableResult
    public func rememberCrashes(at locations: [ImageLocation]) async throws -> [Asset] {
        let files = Self.crashedFiles(at: locations)
        try await store.recordFailures(
            files.map {
                ThumbnailStore.FailureEntry(
                    assetID: $0.id, fingerprint: $0.fingerprint, failure: FailureRecord(.crashed))
            })
        return files
    }

    /// The files of the decodes at `locations` that crashed, gone ones left out
    /// (``Asset/init(crashedDecodeAt:)``): what ``rememberCrashes(at:)`` keeps, and what a warm
    /// opened without a store records in the places it writes to.
    public static func crashedFiles(at locations: [ImageLocation]) -> [Asset] {
        locations.compactMap(Asset.init(crashedDecodeAt:))
    }

    /// Whether this version of the file `assetID` killed a process that decoded it: the walk does
    /// not read its header again.
    func crashedBefore(assetID: String, fingerprint: FileFingerprint) throws(StoreError) -> Bool {
        try store.failure(for: assetID, fingerprint: fingerprint)?.kind == .crashed
    }
}
