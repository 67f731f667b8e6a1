import Foundation
import SystemPackage
import ThumbsCore
import ThumbsRendering
import ThumbsStore
import ThumbsSupport

extension PhotoLibrary {
    /// Turns walked files into assets: from the metadata cache when the fingerprint matches,
    /// otherwise by inspecting the file (in parallel, on the render threads), writing what was
    /// learnt back to the cache in one batch. Returns the files that changed while read, with the
    /// type their first bytes had.
    func resolve(
        _ files: [LibraryWalker.File], root: String, into batch: inout LibraryBatch
    ) async throws -> [ChangingFile] {
        var misses: [LibraryWalker.File] = []
        for file in files {
            let id = AssetID.make(root: root, relativeFilePath: file.path)
            if let cached = try store?.metadata(for: id), cached.fingerprint == file.fingerprint, !cached.isOutdated {
                if cached.mediaType.isAsset {
                    var asset = Asset(
                        root: root, relativeFilePath: file.path, mediaType: cached.mediaType,
                        fingerprint: file.fingerprint, properties: cached.properties)
                    asset.placeholder = cached.placeholder
                    batch.assets.append(asset)
                } else if MediaType.isMediaFileName(file.relativePath) {
                    batch.issues.append(
                        .init(
                            file, reason: .notMedia(Self.notMediaError(cached.fingerprint)),
                            fingerprint: file.fingerprint))
                }
                batch.fromCache += 1
            } else if try store?.failure(for: id, fingerprint: file.fingerprint)?.kind == .crashed {
                // Its header killed a process (this one's render worker, or this process when it
                // decoded in-process): reading it again would do so again.
                batch.issues.append(.init(file, reason: .crashedBefore, fingerprint: file.fingerprint))
            } else {
                misses.append(file)
            }
        }
        guard !misses.isEmpty else { return [] }
        let locations = misses.map { ImageLocation(root: FilePath(root), relativePath: $0.path) }
        // Asked for all at once, the headers' reads overlap, where each inspection would
        // otherwise hold its render thread on a read of its own.
        try await io.run { for location in locations { location.adviseReading(first: Self.headerBytes) } }
        let inspections = try await inspect(locations)
        var changing: [ChangingFile] = []
        var learnt: [ThumbnailStore.MetadataEntry] = []
        var crashed: [ThumbnailStore.FailureEntry] = []
        for (file, result) in zip(misses, inspections) {
            batch.inspected += 1
            let inspection: Inspection
            switch result {
            case .success(let value): inspection = value
            case .failure(.crashed):
                // Its header killed a render worker: remembered, so that no walk reads it again.
                crashed.append(
                    ThumbnailStore.FailureEntry(
                        assetID: AssetID.make(root: root, relativeFilePath: file.path), fingerprint: file.fingerprint,
                        failure: FailureRecord(.crashed)))
                batch.issues.append(.init(file, reason: .crashedBefore, fingerprint: file.fingerprint))
                continue
            case .failure(let error):
                batch.issues.append(LibraryIssue(path: file.relativePath, reason: .unreadableFile("\(error)")))
                continue
            }
            if inspection.changedWhileRead || inspection.fingerprint != file.fingerprint {
                changing.append(ChangingFile(root: root, file: file, mediaType: inspection.mediaType))
                continue
            }
            let id = AssetID.make(root: root, relativeFilePath: file.path)
            learnt.append(
                .init(
                    assetID: id,
                    metadata: AssetMetadata(
                        fingerprint: inspection.fingerprint, mediaType: inspection.mediaType,
                        properties: inspection.properties)))
            guard inspection.mediaType.isAsset else {
                if MediaType.isMediaFileName(file.relativePath) {
                    batch.issues.append(
                        .init(
                            file, reason: .notMedia(Self.notMediaError(inspection.fingerprint)),
                            fingerprint: inspection.fingerprint))
                }
                continue
            }
            if let problem = inspection.problem {
                batch.issues.append(LibraryIssue(path: file.relativePath, reason: .unreadableHeader(problem)))
            }
            batch.assets.append(
                Asset(
                    root: root, relativeFilePath: file.path, mediaType: inspection.mediaType,
                    fingerprint: inspection.fingerprint, properties: inspection.properties))
        }
        if let store, !learnt.isEmpty { try await store.putMetadata(learnt) }
        if let store, !crashed.isEmpty { try await store.recordFailures(crashed) }
        return changing
    }
}

extension PhotoLibrary {
    /// A file that changed while it was read: read again at the end of the walk.
    struct ChangingFile: Sendable {
        let root: String
        let file: LibraryWalker.File
        /// What its first bytes said when it was read.
        let mediaType: MediaType
    }

    /// How much of a file is read ahead of its inspection: a photo's headers (EXIF, a HEIF's
    /// boxes) come first in the file and fit in it.
    static let headerBytes = 256 << 10

    /// Why a file named like media is not: empty, or something else.
    static func notMediaError(_ fingerprint: FileFingerprint) -> ImagingError {
        fingerprint.size == 0 ? .emptyFile : .unsupportedFormat("not a photo or a video")
    }

    /// One inspection's result, by position.
    private struct Inspected: Sendable {
        let index: Int
        let result: Result<Inspection, ImagingError>
    }

    /// Inspects the files in parallel on the render threads; results follow `locations`' order.
    /// Throws only for cancellation.
    private func inspect(_ locations: [ImageLocation]) async throws -> [Result<Inspection, ImagingError>] {
        let renderer = renderer
        return try await withThrowingTaskGroup(of: Inspected.self) { group in
            for (index, location) in locations.enumerated() {
                group.addTask {
                    do {
                        return Inspected(index: index, result: .success(try await renderer.inspect(location)))
                    } catch let error as ImagingError {
                        return Inspected(index: index, result: .failure(error))
                    }
                }
            }
            var results = [Result<Inspection, ImagingError>](
                repeating: .failure(.unreadable("not inspected")), count: locations.count)
            for try await inspected in group { results[inspected.index] = inspected.result }
            return results
        }
    }
}

extension LibraryIssue {
    /// An issue about a walked file, at the version `fingerprint`.
    init(_ file: LibraryWalker.File, reason: Reason, fingerprint: FileFingerprint) {
        self.init(path: file.relativePath, reason: reason)
        self.file = File(path: file.path, fingerprint: fingerprint)
    }
}
