import SystemPackage
import ThumbsStore
import ThumbsSupport

/// The folders a walk is in, each with its files so far and their digest, handed on whole as
/// the walk leaves them: what the folder listings (``FolderListingWalk``) and the warm's pass
/// over warmed folders (``WarmedFolderSkip``) both compare, gathered and hashed once. Memory
/// holds the folders the walk is in, not the library.
struct OpenFolders {
    /// A folder's files, and their ``/ThumbsStore/FolderListing/Digest``.
    struct Folder {
        var files: [LibraryWalker.File] = []
        var digest = FolderListing.Digest()

        mutating func add(_ file: LibraryWalker.File) {
            files.append(file)
            file.path.lastComponent?.withPlatformString { digest.add(name: $0, fingerprint: file.fingerprint) }
        }
    }

    private var open: [FilePath: Folder] = [:]

    /// Takes one step's files; returns the folders the step left, in the order it left them.
    mutating func take(_ step: LibraryWalker.Step) -> [(path: FilePath, folder: Folder)] {
        // In place through the dictionary: a folder's files are appended to, not copied.
        for file in step.files { open[file.folder, default: Folder()].add(file) }
        return step.finishedFolders.map { ($0, open.removeValue(forKey: $0) ?? Folder()) }
    }
}
