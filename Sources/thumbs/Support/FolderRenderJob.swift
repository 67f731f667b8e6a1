import Foundation
import Thumbs

/// Renders every photo under some folders (and some files given by name) into an output folder:
/// `thumbs render` of folders. The folders are walked by the library's walker (the rules of
/// `warm` for hidden files, symbolic links and unreadable folders), and rendered by the warm
/// job's loop, so the first thumbnails are written while the walk goes on.
struct FolderRenderJob {
    let folders: [String]
    let files: [String]
    let renditions: [Rendition]
    let outputFolder: String
    let renderer: any ThumbnailRendering
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
            let fields: [String: Any] = [
                "event": "summary", "photos": files, "rendered": files - failed, "thumbnails": thumbnails,
                "bytes": bytes, "failed": failed, "unwritten": unwritten,
                "seconds": (elapsed.seconds * 100).rounded() / 100,
                "failuresByKind": Dictionary(uniqueKeysWithValues: failuresByKind.map { ($0.key.rawValue, $0.value) }),
            ]
            return JSONLine.encode(fields)
        }

        var description: String {
            var text = String(
                format: "rendered %d of %d files (%d thumbnails, %d bytes) in %.2f s",
                files - failed, files, thumbnails, bytes, elapsed.seconds)
            if failed > 0 {
                let kinds = failuresByKind.sorted { $0.key.rawValue < $1.key.rawValue }
                    .map { "\($0.key.rawValue) \($0.value)" }.joined(separator: ", ")
                text += "; \(failed) failed (\(kinds))"
            }
            if unwritten > 0 { text += "; \(unwritten) could not be written" }
            return text
        }
    }

    func run() async throws -> Summary {
        var summary = Summary()
        let started = ContinuousClock.now
        let stems = OutputStems(folders: folders, outputFolder: outputFolder)
        let loop = BatchRenderLoop(renderer: renderer, specs: renditions.map(\.spec))

        func fail(_ path: String, _ error: ImagingError) {
            summary.files += 1
            summary.failuresByKind[error.kind, default: 0] += 1
            if json {
                print(
                    JSONLine.encode([
                        "event": "failed", "path": path, "kind": error.kind.rawValue,
                        "message": error.description,
                    ]))
            } else {
                print("failed \(path): \(error.kind.rawValue): \(error)".escapedForTerminal)
            }
        }

        func absorb(_ outcome: BatchRenderLoop.Outcome) {
            switch outcome.result {
            case .success(let thumbnails)?:
                summary.files += 1
                summary.thumbnails += thumbnails.count
                summary.bytes += thumbnails.reduce(0) { $0 + $1.bytes.count }
                let stem = stems.stem(for: outcome.asset)
                do {
                    try Self.write(thumbnails, renditions: renditions, stem: stem)
                } catch {
                    summary.unwritten += 1
                    printError("cannot write \(stem).*: \(error.localizedDescription)")
                }
            case .failure(let error)?:
                fail(outcome.asset.path, error)
            case nil:
                break
            }
        }

        // Files named on the command line: each its own asset, written as OUT/<file name>.
        var named: [Asset] = []
        for file in files {
            do {
                let inspection = try await renderer.inspect(ImageLocation(path: file))
                // Opened beneath its own folder: a link named on purpose is resolved first.
                let url = URL(fileURLWithPath: file).resolvingSymlinksInPath().standardizedFileURL
                named.append(
                    Asset(
                        root: url.deletingLastPathComponent().path, relativePath: url.lastPathComponent,
                        mediaType: inspection.mediaType, fingerprint: inspection.fingerprint,
                        properties: inspection.properties))
            } catch let error as ImagingError {
                fail(file, error)
            }
        }
        // Named, even a video is tried: its render says why it cannot be made.
        try await loop.run([named].asyncSequence, assets: { $0 }, admit: { _ in .render }, absorb: absorb)

        // Folders, walked: a file named like a photo that is not one is a failure too.
        let library = PhotoLibrary(roots: folders, includeHidden: includeHidden, renderer: renderer, store: nil)
        try await loop.run(
            library.assets(),
            assets: { batch in
                for issue in batch.issues {
                    switch issue.reason {
                    case .notMedia(let error): fail(issue.path, error)
                    case .unreadableFile(let why): fail(issue.path, .unreadable(why))
                    default: printError("\(issue)")
                    }
                }
                return batch.assets
            },
            admit: { _ in .render }, absorb: absorb)
        summary.elapsed = started.duration(to: .now)
        return summary
    }

    /// Writes <stem>.<rendition>.<extension> for each thumbnail.
    private static func write(_ thumbnails: [Thumbnail], renditions: [Rendition], stem: String) throws {
        for (rendition, thumbnail) in zip(renditions, thumbnails) {
            let target = URL(fileURLWithPath: stem + ".\(rendition.name).\(thumbnail.format.fileExtension)")
            try FileManager.default.createDirectory(
                at: target.deletingLastPathComponent(),
                withIntermediateDirectories: true)
            try Data(thumbnail.bytes).write(to: target)
        }
    }
}
