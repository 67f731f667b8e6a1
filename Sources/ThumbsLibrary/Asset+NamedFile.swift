import Foundation
import SystemPackage
import ThumbsCore
import ThumbsRendering

extension Asset {
    /// The file at `path` (a name given on a command line) as an asset, inspected by `renderer`.
    ///
    /// Beneath the first of `roots` that holds it, the file is that root's asset, with the id and
    /// cache entries a walk of the root gives it; elsewhere it is an asset beneath its own
    /// folder, a link named on purpose resolved first. Throws the `ImagingError` of an
    /// inspection that fails.
    public static func inspecting(
        file path: String, beneath roots: [String] = [], with renderer: any ThumbnailRendering
    ) async throws -> Asset {
        let named = URL(fileURLWithPath: path).standardizedFileURL
        let libraryRoot = roots.first { named.path.hasPrefix($0 + "/") }
        let file = libraryRoot == nil ? named.resolvingSymlinksInPath().path : named.path
        let root = libraryRoot ?? URL(fileURLWithPath: file).deletingLastPathComponent().path
        let relativePath = FilePath(String(file.dropFirst(root.count + 1)))
        let inspection = try await renderer.inspect(ImageLocation(root: FilePath(root), relativePath: relativePath))
        return Asset(
            root: root, relativeFilePath: relativePath, mediaType: inspection.mediaType,
            fingerprint: inspection.fingerprint, properties: inspection.properties)
    }
}
