import Foundation
import ThumbsCore
import ThumbsRendering
import ThumbsLibrary
import ThumbsStore
import ThumbsSupport

/// A folder of thumbnail files as an output of a warm: `thumbs render` of folders and files.
/// Each photo's thumbnails go to `<folder>/<name of its library folder>/<path in it>.<rendition>.<extension>`
/// (two library folders called DCIM to DCIM and DCIM-2), a photo named alone to
/// `<folder>/<file name>.<rendition>.<extension>`. Every photo is rendered, each run: the folder
/// keeps no record of what it holds or of failures.
///
/// A thumbnail that cannot be written (a full disk, say) is counted in ``unwritten`` and
/// reported to `onUnwritten`, and the warm goes on.
public struct FolderWarmOutput: WarmOutput {
    /// The folder written into.
    public let folder: String
    /// Each rendition, by the name its files take.
    public let namedRenditions: [(name: String, spec: RenditionSpec)]
    /// The name each library folder's photos go under, by the folder's standardized path.
    private let names: [String: String]
    private let unwrittenCount = LockedValue(0)
    private let onUnwritten: @Sendable (_ stem: String, _ error: any Error) -> Void

    /// Writes into `folder` the renditions named, for the photos of `libraryFolders` and of files named alone.
    public init(
        folder: String, libraryFolders: [String], renditions: [(name: String, spec: RenditionSpec)],
        onUnwritten: @escaping @Sendable (_ stem: String, _ error: any Error) -> Void = { _, _ in }
    ) {
        self.folder = folder
        self.namedRenditions = renditions
        self.onUnwritten = onUnwritten
        var names: [String: String] = [:], used: Set<String> = []
        for libraryFolder in libraryFolders {
            let path = URL(fileURLWithPath: libraryFolder).standardizedFileURL.path
            let base = path == "/" ? "root" : URL(fileURLWithPath: path).lastPathComponent
            var name = base
            var suffix = 2
            while !used.insert(name).inserted {
                name = "\(base)-\(suffix)"
                suffix += 1
            }
            names[path] = name
        }
        self.names = names
    }

    public var renditions: [RenditionSpec] { namedRenditions.map(\.spec) }

    /// Photos whose thumbnails could not be written.
    public var unwritten: Int { unwrittenCount.withLock { $0 } }

    public func state(of asset: Asset) -> WarmOutputState { .missing }

    public func write(_ thumbnails: [RenditionSpec: Thumbnail], of asset: Asset) {
        let stem = stem(for: asset)
        do {
            for (name, spec) in namedRenditions {
                guard let thumbnail = thumbnails[spec] else { continue }
                let target = URL(fileURLWithPath: stem + ".\(name).\(thumbnail.format.fileExtension)")
                try FileManager.default.createDirectory(
                    at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(thumbnail.bytes).write(to: target)
            }
        } catch {
            unwrittenCount.withLock { $0 += 1 }
            onUnwritten(stem, error)
        }
    }

    /// Nothing: the folder keeps no failures.
    public func recordFailure(_ failure: FailureRecord, of asset: Asset) {}

    /// Nothing: the folder is written, not kept in step with the library.
    public func remove(_ assets: [Asset]) {}

    /// Where the thumbnails of `asset` go, without the rendition and extension.
    func stem(for asset: Asset) -> String {
        guard let name = names[asset.root] else { return folder + "/" + asset.relativePath }
        return folder + "/" + name + "/" + asset.relativePath
    }
}
