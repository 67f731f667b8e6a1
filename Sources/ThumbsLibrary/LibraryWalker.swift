import Foundation
import Glibc
import SystemPackage
import ThumbsCore
import ThumbsRendering
import ThumbsStore
import ThumbsSupport

/// Walks one library root depth-first, a few files at a time, holding only one open directory per
/// level: memory stays the same whatever the library's size.
///
/// Only files inside the root are returned: a symbolic link is followed when its target is inside
/// the root (directories once each, so link loops end) and skipped with a reason otherwise. Names
/// starting with "." are skipped unless `includeHidden`. Names are bytes (`FilePath`): one that is
/// not valid UTF-8 is walked and opened as it is, and shown escaped. The file-system calls block, so the
/// walker is driven from a dedicated thread (see ``PhotoLibrary``).
///
/// `@unchecked Sendable`: all state is behind `lock`; one `next` runs at a time.
final class LibraryWalker: @unchecked Sendable {
    struct File: Sendable {
        /// The path inside the root, as the file system has it.
        let path: FilePath
        /// The same, for people (``/ThumbsSupport/SystemPackage/FilePath/displayString``).
        let relativePath: String
        let fingerprint: FileFingerprint
        /// The folder holding it, beneath the root (the walk has it at hand).
        let folder: FilePath

        init(path: FilePath, relativePath: String, fingerprint: FileFingerprint, folder: FilePath? = nil) {
            self.path = path
            self.relativePath = relativePath
            self.fingerprint = fingerprint
            self.folder = folder ?? path.removingLastComponent()
        }
    }

    struct Step: Sendable {
        var files: [File] = []
        var issues: [LibraryIssue] = []
        /// Folders the walk has left: every file of theirs is in this step or an earlier one.
        var finishedFolders: [FilePath] = []
        var finished = false
    }

    let root: String
    private let realRoot: FilePath
    private let includeHidden: Bool
    private let lock = NSLock()
    private var stack: [(relative: FilePath, handle: OpaquePointer)] = []
    private var visitedFolders: Set<FolderIdentity> = []
    private var started = false
    /// The most directories held open at once so far (the walk's whole memory, besides its
    /// output).
    var peakOpenFolders: Int { lock.withLock { peakOpenFoldersSoFar } }
    private var peakOpenFoldersSoFar = 0

    private struct FolderIdentity: Hashable {
        let device: UInt64
        let inode: UInt64
    }

    init(root: String, includeHidden: Bool) {
        self.root = root
        realRoot = FilePath(URL(fileURLWithPath: root).resolvingSymlinksInPath().path)
        self.includeHidden = includeHidden
    }

    deinit {
        for folder in stack { closedir(folder.handle) }
    }

    /// Up to `limit` files, continuing where the last call stopped.
    func next(limit: Int) -> Step {
        lock.lock()
        defer { lock.unlock() }
        var step = Step()
        if !started {
            started = true
            var info = stat()
            let identity =
                stat(root, &info) == 0
                ? FolderIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino)) : nil
            open(FilePath(), into: &step, identity: identity)
        }
        while step.files.count < limit, let top = stack.last {
            guard let entry = readdir(top.handle) else {
                closedir(top.handle)
                stack.removeLast()
                step.finishedFolders.append(top.relative)
                continue
            }
            guard let name = FilePath.Component(directoryEntry: entry), includeHidden || !name.isHidden else {
                continue
            }
            visit(name, in: top, into: &step)
        }
        step.finished = stack.isEmpty
        return step
    }

    /// Visits the entry `name` of the open folder `folder`: stated from the folder's descriptor,
    /// so that the kernel does not resolve the whole path again for every file.
    private func visit(
        _ name: FilePath.Component, in folder: (relative: FilePath, handle: OpaquePointer), into step: inout Step
    ) {
        let relative = folder.relative.appending(name)
        let shown = relative.displayString
        var info = stat()
        guard name.withPlatformString({ fstatat(dirfd(folder.handle), $0, &info, AT_SYMLINK_NOFOLLOW) }) == 0 else {
            step.issues.append(LibraryIssue(path: shown, reason: .unreadableFile(SystemError.describe(errno))))
            return
        }
        if (info.st_mode & S_IFMT) == S_IFLNK {
            let path = FilePath(root).appending(relative.components)
            guard let target = path.withPlatformString({ realpath($0, nil) }) else {
                step.issues.append(LibraryIssue(path: shown, reason: .unreadableFile("broken symbolic link")))
                return
            }
            let resolved = FilePath(platformString: target)
            free(target)
            guard resolved.starts(with: realRoot) else {
                step.issues.append(
                    LibraryIssue(path: shown, reason: .symlinkOutsideRoot(target: resolved.displayString)))
                return
            }
            guard path.withPlatformString({ stat($0, &info) }) == 0 else { return }
        }
        switch info.st_mode & S_IFMT {
        case S_IFDIR:
            open(
                relative, into: &step, identity: FolderIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
            )
        case S_IFREG:
            step.files.append(
                File(
                    path: relative, relativePath: shown,
                    fingerprint: FileFingerprint(
                        size: UInt64(info.st_size),
                        modificationTimeNanoseconds: FileFingerprint.modificationTimeNanoseconds(of: info)),
                    folder: folder.relative))
        default:
            break  // sockets, FIFOs, devices: never media, and opening a FIFO would block
        }
    }

    private func open(_ relative: FilePath, into step: inout Step, identity: FolderIdentity? = nil) {
        let path = FilePath(root).appending(relative.components)
        if let identity, !visitedFolders.insert(identity).inserted { return }
        guard let handle = path.withPlatformString({ opendir($0) }) else {
            step.issues.append(
                LibraryIssue(
                    path: relative.isEmpty ? "." : relative.displayString,
                    reason: .unreadableFolder(SystemError.describe(errno))))
            return
        }
        stack.append((relative, handle))
        peakOpenFoldersSoFar = max(peakOpenFoldersSoFar, stack.count)
    }
}
