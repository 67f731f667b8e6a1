import Foundation
import SystemPackage
import ThumbsSupport

/// Where a file to image is: a folder it must not leave (a library root) and the path beneath it.
///
/// Files are opened through their location only (`OpenedFile`): resolved beneath the root by
/// the kernel, so that a photo swapped for a link to a file outside the library after the walk
/// cannot bring that file's pixels into the cache. Paths are bytes (`FilePath`), so a name that
/// is not valid UTF-8 is opened as it is.
/// ```swift
/// let location = ImageLocation(root: "/photos", relativePath: "2024/IMG_0001.JPG")
/// let thumbnail = try await renderer.render(location, specs: [spec], ticket: PriorityTicket(.interactive))
/// ```
public struct ImageLocation: Sendable, Hashable, CustomStringConvertible {
    /// The folder the file must stay beneath.
    public var root: FilePath
    /// The path inside ``root``: relative, without "." or ".." components.
    public var relativePath: FilePath
    /// The size and modification time the file is expected to have (from the walk): an opened
    /// file that differs is ``ImagingError/changedWhileRendering``, so that no thumbnail is
    /// kept under a key that names other content. Nil accepts any version.
    public var expectedFingerprint: FileFingerprint?

    public init(root: FilePath, relativePath: FilePath, expectedFingerprint: FileFingerprint? = nil) {
        self.root = root
        self.relativePath = relativePath
        self.expectedFingerprint = expectedFingerprint
    }

    /// A file named on its own (a command-line argument): beneath its own folder. The name is
    /// resolved first, so a link named on purpose leads to its target.
    public init(path: String) {
        let resolved = URL(fileURLWithPath: path).resolvingSymlinksInPath().standardizedFileURL
        self.init(
            root: FilePath(resolved.deletingLastPathComponent().path),
            relativePath: FilePath(resolved.lastPathComponent))
    }

    /// The whole path, for people (bytes that are not UTF-8 shown as `\xHH`).
    public var description: String {
        root.appending(relativePath.components).displayString
    }

    /// The file name, for people.
    package var displayName: String { relativePath.lastComponent.map { FilePath(root: nil, [$0]).displayString } ?? "" }
}
