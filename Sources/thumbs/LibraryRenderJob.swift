import Foundation
import Thumbs

/// Renders every photo under some folders into an output folder: the `render` command's
/// batch mode, until the pipeline's `warm` job replaces it.
struct LibraryRenderJob {
    let roots: [String]
    let renditions: [Rendition]
    let outputFolder: String
    let renderer: ThumbnailRenderer
    let includeHidden: Bool

    struct Summary: CustomStringConvertible {
        var files = 0
        var thumbnails = 0
        var bytes = 0
        var failuresByKind: [ImagingError.Kind: Int] = [:]
        var elapsed: Duration = .zero

        var failed: Int { failuresByKind.values.reduce(0, +) }

        var description: String {
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            var text = String(format: "rendered %d of %d photos (%d thumbnails, %d bytes) in %.2f s",
                              files - failed, files, thumbnails, bytes, seconds)
            if failed > 0 {
                let kinds = failuresByKind.sorted { $0.key.rawValue < $1.key.rawValue }
                    .map { "\($0.key.rawValue) \($0.value)" }.joined(separator: ", ")
                text += "; \(failed) failed (\(kinds))"
            }
            return text
        }
    }

    func run() async -> Summary {
        var summary = Summary()
        let started = ContinuousClock.now
        let files = roots.flatMap { root in
            PhotoFileList(root: root, includeHidden: includeHidden).entries
        }
        // A window a little wider than the render threads keeps them busy without queueing
        // every file of a large library at once.
        let window = renderer.configuration.renderThreads * 2
        await withTaskGroup(of: (String, Result<[Thumbnail], any Error>).self) { group in
            var pending = files.makeIterator()
            func startNext() -> Bool {
                guard let (root, relative) = pending.next() else { return false }
                group.addTask {
                    let path = root + "/" + relative
                    do {
                        let thumbnails = try await renderer.render(path, specs: renditions.map(\.spec))
                        try write(thumbnails, for: relative, root: root)
                        return (path, .success(thumbnails))
                    } catch {
                        return (path, .failure(error))
                    }
                }
                return true
            }
            for _ in 0..<window where !startNext() { break }
            while let (path, result) = await group.next() {
                summary.files += 1
                switch result {
                case .success(let thumbnails):
                    summary.thumbnails += thumbnails.count
                    summary.bytes += thumbnails.reduce(0) { $0 + $1.bytes.count }
                case .failure(let error):
                    let kind = (error as? ImagingError)?.kind ?? .unreadable
                    summary.failuresByKind[kind, default: 0] += 1
                    print("failed \(path): \(kind.rawValue): \(error)")
                }
                _ = startNext()
            }
        }
        summary.elapsed = started.duration(to: .now)
        return summary
    }

    /// Writes OUT/<root name>/<relative path>.<rendition>.<extension>.
    private func write(_ thumbnails: [Thumbnail], for relative: String, root: String) throws {
        let rootName = URL(fileURLWithPath: root).lastPathComponent
        for (rendition, thumbnail) in zip(renditions, thumbnails) {
            let target = URL(fileURLWithPath: outputFolder)
                .appendingPathComponent(rootName)
                .appendingPathComponent(relative + ".\(rendition.name).\(thumbnail.format.fileExtension)")
            try FileManager.default.createDirectory(at: target.deletingLastPathComponent(),
                                                    withIntermediateDirectories: true)
            try Data(thumbnail.bytes).write(to: target)
        }
    }
}

/// The files under a folder that look like photos by name or by content, relative to it,
/// in a stable order. Sidecars and notes (.xmp, .txt, .tsv) are left out unless their
/// content is an image.
struct PhotoFileList {
    let root: String
    let includeHidden: Bool

    private static let photoExtensions: Set = [
        "jpg", "jpeg", "jpe", "png", "gif", "webp", "tif", "tiff", "heic", "heif", "hif", "avif",
    ]

    /// (folder, path relative to it) for each photo; a root that is a file lists itself.
    var entries: [(String, String)] {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root, isDirectory: &isFolder) else { return [] }
        guard isFolder.boolValue else {
            let url = URL(fileURLWithPath: root)
            return [(url.deletingLastPathComponent().path, url.lastPathComponent)]
        }
        return files.map { (root, $0) }
    }

    private var files: [String] {
        let options: FileManager.DirectoryEnumerationOptions = includeHidden ? [] : [.skipsHiddenFiles]
        guard let walker = FileManager.default.enumerator(
            at: URL(fileURLWithPath: root), includingPropertiesForKeys: [.isRegularFileKey], options: options)
        else { return [] }
        var found: [String] = []
        let prefix = URL(fileURLWithPath: root).standardizedFileURL.path + "/"
        for case let url as URL in walker {
            guard (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true else { continue }
            let path = url.standardizedFileURL.path
            guard Self.photoExtensions.contains(url.pathExtension.lowercased()) || looksLikeImage(path) else { continue }
            found.append(path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path)
        }
        return found.sorted()
    }

    private func looksLikeImage(_ path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        let prefix = (try? handle.read(upToCount: MediaType.sniffLength)) ?? Data()
        return MediaType(sniffing: Array(prefix)).isImage
    }
}
