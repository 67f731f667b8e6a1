import Foundation

extension PhotoLibrary {
    /// Turns walked files into assets: from the metadata cache when the fingerprint matches,
    /// otherwise by inspecting the file (in parallel, on the render threads), writing what was
    /// learnt back to the cache in one batch. Returns the files that changed while read.
    func resolve(
        _ files: [LibraryWalker.File], root: String, into batch: inout LibraryBatch
    ) async throws -> [LibraryWalker.File] {
        var misses: [LibraryWalker.File] = []
        for file in files {
            let id = AssetID.make(root: root, relativePath: file.relativePath)
            if let cached = try store?.metadata(for: id), cached.fingerprint == file.fingerprint {
                if cached.mediaType.isImage || cached.mediaType.isVideo {
                    batch.assets.append(Asset(root: root, relativePath: file.relativePath, mediaType: cached.mediaType,
                                              fingerprint: file.fingerprint, properties: cached.properties))
                } else if MediaType.isMediaFileName(file.relativePath) {
                    batch.issues.append(LibraryIssue(path: file.relativePath, reason: .notMedia))
                }
                batch.fromCache += 1
            } else {
                misses.append(file)
            }
        }
        guard !misses.isEmpty else { return [] }
        let renderer = renderer
        let inspections = try await withThrowingTaskGroup(of: (Int, Result<Inspection, any Error>).self) { group in
            for (index, file) in misses.enumerated() {
                let path = root + "/" + file.relativePath
                group.addTask {
                    do { return (index, .success(try await renderer.inspect(path))) } catch { return (index, .failure(error)) }
                }
            }
            var results = [Result<Inspection, any Error>?](repeating: nil, count: misses.count)
            for try await (index, result) in group { results[index] = result }
            return results.compactMap { $0 }
        }
        var changing: [LibraryWalker.File] = []
        var learnt: [(assetID: String, metadata: AssetMetadata)] = []
        for (file, result) in zip(misses, inspections) {
            batch.inspected += 1
            let inspection: Inspection
            switch result {
            case .success(let value): inspection = value
            case .failure(let error as ImagingError):
                batch.issues.append(LibraryIssue(path: file.relativePath, reason: .unreadableFile("\(error)")))
                continue
            case .failure(let error): throw error
            }
            if inspection.changedWhileRead || inspection.fingerprint != file.fingerprint {
                changing.append(file)
                continue
            }
            let id = AssetID.make(root: root, relativePath: file.relativePath)
            learnt.append((id, AssetMetadata(fingerprint: inspection.fingerprint, mediaType: inspection.mediaType,
                                             properties: inspection.properties)))
            guard inspection.mediaType.isImage || inspection.mediaType.isVideo else {
                if MediaType.isMediaFileName(file.relativePath) {
                    batch.issues.append(LibraryIssue(path: file.relativePath, reason: .notMedia))
                }
                continue
            }
            if let problem = inspection.problem {
                batch.issues.append(LibraryIssue(path: file.relativePath, reason: .unreadableHeader(problem)))
            }
            batch.assets.append(Asset(root: root, relativePath: file.relativePath, mediaType: inspection.mediaType,
                                      fingerprint: inspection.fingerprint, properties: inspection.properties))
        }
        if let store, !learnt.isEmpty { try await store.putMetadata(learnt) }
        return changing
    }
}

extension MediaType {
    private static let mediaExtensions: Set = [
        "jpg", "jpeg", "jpe", "png", "gif", "webp", "tif", "tiff", "heic", "heif", "hif", "avif",
        "mp4", "m4v", "mov", "mkv", "webm", "dng", "nef", "cr2", "cr3", "arw", "orf", "rw2", "raf",
    ]

    /// Whether a file's name says photo or video (only used to decide whether a non-media file
    /// is worth reporting: the content always decides what a file is).
    public static func isMediaFileName(_ name: String) -> Bool {
        guard let dot = name.lastIndex(of: "."), !name[dot...].contains("/") else { return false }
        return mediaExtensions.contains(name[name.index(after: dot)...].lowercased())
    }
}
