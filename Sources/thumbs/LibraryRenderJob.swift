import Foundation
import Thumbs

/// Renders every photo under some folders (or some files) into an output folder: the `render`
/// command's batch mode, until the pipeline's `warm` job replaces it.
struct LibraryRenderJob {
    let roots: [String]
    let renditions: [Rendition]
    let outputFolder: String
    let renderer: ThumbnailRenderer
    let includeHidden: Bool
    /// Failure lines as JSON events instead of text.
    var json = false

    struct Summary: CustomStringConvertible {
        var files = 0
        var thumbnails = 0
        var bytes = 0
        var failuresByKind: [ImagingError.Kind: Int] = [:]
        var unwritten = 0
        var elapsed: Duration = .zero

        var failed: Int { failuresByKind.values.reduce(0, +) }

        /// The summary as one JSON document.
        var json: String {
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            let fields: [String: Any] = [
                "event": "summary", "photos": files, "rendered": files - failed, "thumbnails": thumbnails,
                "bytes": bytes, "failed": failed, "unwritten": unwritten, "seconds": (seconds * 100).rounded() / 100,
                "failuresByKind": Dictionary(uniqueKeysWithValues: failuresByKind.map { ($0.key.rawValue, $0.value) }),
            ]
            let data = (try? JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys])) ?? Data()
            return String(decoding: data, as: UTF8.self)
        }

        var description: String {
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            var text = String(format: "rendered %d of %d photos (%d thumbnails, %d bytes) in %.2f s",
                              files - failed, files, thumbnails, bytes, seconds)
            if failed > 0 {
                let kinds = failuresByKind.sorted { $0.key.rawValue < $1.key.rawValue }
                    .map { "\($0.key.rawValue) \($0.value)" }.joined(separator: ", ")
                text += "; \(failed) failed (\(kinds))"
            }
            if unwritten > 0 { text += "; \(unwritten) could not be written" }
            return text
        }
    }

    /// One photo to render: where it is, and the output path stem its thumbnails extend.
    struct Item: Sendable {
        let path: String
        let outputStem: String
    }

    func run() async -> Summary {
        var summary = Summary()
        let started = ContinuousClock.now
        let items = Self.items(roots: roots, outputFolder: outputFolder, includeHidden: includeHidden)
        let renditions = renditions, renderer = renderer
        // A window a little wider than the render threads keeps them busy without queueing
        // every file of a large library at once.
        let window = renderer.configuration.renderThreads * 2
        await withTaskGroup(of: (Item, Result<[Thumbnail], ImagingError>, (any Error)?).self) { group in
            var pending = items.makeIterator()
            func startNext() -> Bool {
                guard let item = pending.next() else { return false }
                group.addTask {
                    do {
                        let thumbnails = try await renderer.render(item.path, specs: renditions.map(\.spec))
                        do {
                            try Self.write(thumbnails, renditions: renditions, stem: item.outputStem)
                            return (item, .success(thumbnails), nil)
                        } catch {
                            return (item, .success(thumbnails), error)
                        }
                    } catch let error as ImagingError {
                        return (item, .failure(error), nil)
                    } catch {
                        return (item, .failure(.unreadable("\(error)")), nil)
                    }
                }
                return true
            }
            for _ in 0..<window where !startNext() { break }
            while let (item, result, writeError) = await group.next() {
                summary.files += 1
                switch result {
                case .success(let thumbnails):
                    summary.thumbnails += thumbnails.count
                    summary.bytes += thumbnails.reduce(0) { $0 + $1.bytes.count }
                case .failure(let error):
                    summary.failuresByKind[error.kind, default: 0] += 1
                    if json {
                        let fields = ["event": "failed", "path": item.path, "kind": error.kind.rawValue, "message": error.description]
                        let data = (try? JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys])) ?? Data()
                        print(String(decoding: data, as: UTF8.self))
                    } else {
                        print("failed \(item.path): \(error.kind.rawValue): \(error)")
                    }
                }
                if let writeError {
                    summary.unwritten += 1
                    FileHandle.standardError.write(Data("thumbs: cannot write \(item.outputStem).*: \(writeError.localizedDescription)\n".utf8))
                }
                _ = startNext()
            }
        }
        summary.elapsed = started.duration(to: .now)
        return summary
    }

    /// The photos under `roots`, each with its output stem: OUT/<root name>/<relative path> for
    /// folders (root names made unique), OUT/<file name> for files given directly.
    static func items(roots: [String], outputFolder: String, includeHidden: Bool) -> [Item] {
        var usedNames: Set<String> = []
        var items: [Item] = []
        for root in roots {
            let url = URL(fileURLWithPath: root).standardizedFileURL
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) else { continue }
            guard isFolder.boolValue else {
                items.append(Item(path: url.path, outputStem: outputFolder + "/" + url.lastPathComponent))
                continue
            }
            let base = url.path == "/" ? "root" : url.lastPathComponent
            var name = base
            var suffix = 2
            while !usedNames.insert(name).inserted {
                name = "\(base)-\(suffix)"
                suffix += 1
            }
            for relative in PhotoFileList(root: url.path, includeHidden: includeHidden).files {
                items.append(Item(path: url.path + "/" + relative, outputStem: outputFolder + "/" + name + "/" + relative))
            }
        }
        return items
    }

    /// Writes <stem>.<rendition>.<extension> for each thumbnail.
    private static func write(_ thumbnails: [Thumbnail], renditions: [Rendition], stem: String) throws {
        for (rendition, thumbnail) in zip(renditions, thumbnails) {
            let target = URL(fileURLWithPath: stem + ".\(rendition.name).\(thumbnail.format.fileExtension)")
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

    var files: [String] {
        let options: FileManager.DirectoryEnumerationOptions = includeHidden ? [] : [.skipsHiddenFiles]
        guard let walker = FileManager.default.enumerator(
            at: URL(fileURLWithPath: root), includingPropertiesForKeys: [.isRegularFileKey], options: options)
        else { return [] }
        var found: [String] = []
        let prefix = URL(fileURLWithPath: root).standardizedFileURL.path + "/"
        for case let url as URL in walker {
            guard (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true else { continue }
            let path = url.standardizedFileURL.path
            guard MediaType.isImageFileName(path) || looksLikeImage(path) else { continue }
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
