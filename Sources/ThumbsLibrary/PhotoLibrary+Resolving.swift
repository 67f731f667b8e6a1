import Foundation
import SystemPackage
import ThumbsCore
import ThumbsRendering
import ThumbsStore
import ThumbsSupport

extension PhotoLibrary {
    /// Turns walked files into assets: from the metadata cache when the fingerprint matches,
    /// otherwise by inspecting the file (in parallel, on the render threads), keeping what was
    /// learnt in the store in one batch. Returns the files that changed while read, with the
    /// type their first bytes had.
    func resolve(
        _ files: [LibraryWalker.File], root: String, into batch: inout LibraryBatch
    ) async throws -> [ChangingFile] {
        let (cacheMisses, unsigned) = try resolveFromCache(files, root: root, into: &batch)
        try await sign(unsigned, root: root)
        guard !cacheMisses.isEmpty else { return [] }
        let misses = try await recognise(cacheMisses, root: root, into: &batch)
        guard !misses.isEmpty else { return [] }
        let inspections = try await inspect(
            misses.map { ImageLocation(root: FilePath(root), relativePath: $0.file.path) })
        var learnt = Learnt()
        for (miss, result) in zip(misses, inspections) {
            batch.inspected += 1
            sort(result, of: miss.file, identity: miss.identity, root: root, into: &batch, learnt: &learnt)
        }
        try await keep(learnt)
        return learnt.changing
    }

    /// A file the metadata cache knows at its version by a record kept before content
    /// signatures were (``/ThumbsStore/AssetMetadata/contentSignature`` nil).
    private struct UnsignedHit {
        let file: LibraryWalker.File
        let id: String
        let metadata: AssetMetadata
    }

    /// Adds to `batch` the files the metadata cache knows at their version, and an issue for each
    /// file whose version crashed a decoder (the failure memo's), its header not read again.
    /// Returns the others, to inspect, and the files known by records without a signature.
    private func resolveFromCache(
        _ files: [LibraryWalker.File], root: String, into batch: inout LibraryBatch
    ) throws -> (misses: [LibraryWalker.File], unsigned: [UnsignedHit]) {
        var misses: [LibraryWalker.File] = [], unsigned: [UnsignedHit] = []
        for file in files {
            let id = AssetID.make(root: root, relativeFilePath: file.path)
            if let cached = try store?.metadata(for: id), cached.fingerprint == file.fingerprint, !cached.isOutdated {
                add(file, root: root, as: cached, to: &batch)
                batch.fromCache += 1
                if cached.contentSignature == nil, cached.mediaType.isAsset {
                    unsigned.append(UnsignedHit(file: file, id: id, metadata: cached))
                }
            } else if try failureMemo?.crashedBefore(assetID: id, fingerprint: file.fingerprint) == true {
                // Its header killed a process (this one's render worker, or this process when it
                // decoded in-process): reading it again would do so again.
                batch.issues.append(.init(file, reason: .crashedBefore, fingerprint: file.fingerprint))
            } else {
                misses.append(file)
            }
        }
        return (misses, unsigned)
    }

    /// Gives the records of `hits` their content signature, read from each file (its first and
    /// last 16 KiB), so that the file is recognised once it moves: once per file, for records a
    /// cache kept before signatures were. A file that cannot be read now keeps its record as is.
    private func sign(_ hits: [UnsignedHit], root: String) async throws {
        guard let store, !hits.isEmpty else { return }
        let locations = hits.map {
            ImageLocation(
                root: FilePath(root), relativePath: $0.file.path, expectedFingerprint: $0.metadata.fingerprint)
        }
        let identities = try await io.run { locations.map { try? $0.contentIdentity() } }
        var entries: [ThumbnailStore.MetadataEntry] = []
        for (hit, identity) in zip(hits, identities) {
            guard let identity, identity.fingerprint == hit.metadata.fingerprint else { continue }
            var metadata = hit.metadata
            metadata.contentSignature = identity.signature
            entries.append(.init(assetID: hit.id, metadata: metadata))
        }
        try await store.putMetadata(entries)
    }

    /// Files the metadata cache does not know at their path, read for their content identity:
    /// those the cache knows under another path (moved, renamed, copied) are added to `batch`
    /// with what the store gave them; the others are returned, to inspect, with their identity
    /// (nil where it could not be read: the inspection says why).
    private func recognise(
        _ files: [LibraryWalker.File], root: String, into batch: inout LibraryBatch
    ) async throws -> [Miss] {
        guard let store else { return files.map { Miss(file: $0, identity: nil) } }
        let locations = files.map {
            ImageLocation(root: FilePath(root), relativePath: $0.path, expectedFingerprint: $0.fingerprint)
        }
        let identities = try await io.run { locations.map { try? $0.contentIdentity() } }
        var requests: [ThumbnailStore.AdoptionRequest] = [], requested: [Int] = []
        for (index, identity) in identities.enumerated() {
            guard let identity else { continue }
            requests.append(
                .init(identity: identity, assetID: AssetID.make(root: root, relativeFilePath: files[index].path)))
            requested.append(index)
        }
        var adopted = [ThumbnailStore.Adoption?](repeating: nil, count: files.count)
        for (index, adoption) in zip(requested, try await store.adopt(requests)) { adopted[index] = adoption }
        var misses: [Miss] = []
        for (index, file) in files.enumerated() {
            if let adoption = adopted[index] {
                add(file, root: root, as: adoption.metadata, to: &batch)
                batch.fromCache += 1
                batch.recognised += 1
            } else {
                misses.append(Miss(file: file, identity: identities[index]))
            }
        }
        return misses
    }

    /// Sorts one file's inspection: an asset or an issue in `batch`, and in `learnt` what the
    /// store is to keep, or the file to read again.
    private func sort(
        _ result: Result<Inspection, ImagingError>, of file: LibraryWalker.File, identity: ContentIdentity?,
        root: String, into batch: inout LibraryBatch, learnt: inout Learnt
    ) {
        let inspection: Inspection
        switch result {
        case .success(let value): inspection = value
        case .failure(.crashed):
            // Its header killed a render worker: remembered, so that no walk reads it again.
            learnt.crashes.append(
                ImageLocation(root: FilePath(root), relativePath: file.path, expectedFingerprint: file.fingerprint))
            batch.issues.append(.init(file, reason: .crashedBefore, fingerprint: file.fingerprint))
            return
        case .failure(let error):
            batch.issues.append(LibraryIssue(path: file.relativePath, reason: .unreadableFile("\(error)")))
            return
        }
        if inspection.changedWhileRead || inspection.fingerprint != file.fingerprint {
            learnt.changing.append(ChangingFile(root: root, file: file, mediaType: inspection.mediaType))
            return
        }
        var metadata = AssetMetadata(
            fingerprint: inspection.fingerprint, mediaType: inspection.mediaType, properties: inspection.properties)
        if let identity, identity.fingerprint == inspection.fingerprint {
            metadata.contentSignature = identity.signature
        }
        learnt.metadata.append(
            .init(assetID: AssetID.make(root: root, relativeFilePath: file.path), metadata: metadata))
        if metadata.mediaType.isAsset, let problem = inspection.problem {
            batch.issues.append(LibraryIssue(path: file.relativePath, reason: .unreadableHeader(problem)))
        }
        add(file, root: root, as: metadata, to: &batch)
    }

    /// Adds `file` to `batch` as its metadata describes it: an asset, or for a file named like
    /// media that is none (empty, or something else), an issue.
    private func add(
        _ file: LibraryWalker.File, root: String, as metadata: AssetMetadata, to batch: inout LibraryBatch
    ) {
        guard metadata.mediaType.isAsset else {
            if MediaType.isMediaFileName(file.relativePath) {
                batch.issues.append(
                    .init(
                        file, reason: .notMedia(Self.notMediaError(metadata.fingerprint)),
                        fingerprint: metadata.fingerprint))
            }
            return
        }
        var asset = Asset(
            root: root, relativeFilePath: file.path, mediaType: metadata.mediaType,
            fingerprint: metadata.fingerprint, properties: metadata.properties)
        asset.placeholder = metadata.placeholder
        batch.assets.append(asset)
    }

    /// Keeps what the inspections taught: the metadata in the cache, the headers that crashed a
    /// render worker in the failure memo.
    private func keep(_ learnt: Learnt) async throws {
        if let store, !learnt.metadata.isEmpty { try await store.putMetadata(learnt.metadata) }
        if let failureMemo, !learnt.crashes.isEmpty { try await failureMemo.rememberCrashes(at: learnt.crashes) }
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

    /// A file the metadata cache did not know, with its content identity when it was read.
    private struct Miss: Sendable {
        let file: LibraryWalker.File
        let identity: ContentIdentity?
    }

    /// What the inspections of a batch's files taught, for the store, and the files to read
    /// again.
    private struct Learnt {
        var metadata: [ThumbnailStore.MetadataEntry] = []
        /// Headers that killed a render worker, at the version inspected.
        var crashes: [ImageLocation] = []
        var changing: [ChangingFile] = []
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
        // Asked for all at once, the headers' reads overlap, where each inspection would
        // otherwise hold its render thread on a read of its own.
        try await io.run { for location in locations { location.adviseReading(first: Self.headerBytes) } }
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
