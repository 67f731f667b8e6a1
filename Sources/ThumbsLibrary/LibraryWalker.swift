import Foundation
import Glibc
import ThumbsImaging
import ThumbsStore
import ThumbsSupport

/// Walks one library root depth-first, a few files at a time, holding only one open directory per
/// level: memory stays the same whatever the library's size.
///
/// Only files inside the root are returned: a symbolic link is followed when its target is inside
/// the root (directories once each, so link loops end) and skipped with a reason otherwise. Names
/// starting with "." are skipped unless `includeHidden`. The file-system calls block, so the
/// walker is driven from a dedicated thread (see ``PhotoLibrary``).
///
/// `@unchecked Sendable`: all state is behind `lock`; one `next` runs at a time.
final class LibraryWalker: @unchecked Sendable {
    struct File: Sendable {
        let relativePath: String
        let fingerprint: FileFingerprint
    }

    struct Step: Sendable {
        var files: [File] = []
        var issues: [LibraryIssue] = []
        var finished = false
    }

    let root: String
    private let realRoot: String
    private let includeHidden: Bool
    private let lock = NSLock()
    private var stack: [(relative: String, handle: OpaquePointer)] = []
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
        realRoot = URL(fileURLWithPath: root).resolvingSymlinksInPath().path
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
            open("", into: &step, identity: identity)
        }
        while step.files.count < limit, let top = stack.last {
            guard let entry = readdir(top.handle) else {
                closedir(top.handle)
                stack.removeLast()
                continue
            }
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(cString: raw.bindMemory(to: CChar.self).baseAddress!)
            }
            if name == "." || name == ".." || (!includeHidden && name.hasPrefix(".")) { continue }
            visit(top.relative.isEmpty ? name : top.relative + "/" + name, into: &step)
        }
        step.finished = stack.isEmpty
        return step
    }

    private func visit(_ relative: String, into step: inout Step) {
        let path = root + "/" + relative
        var info = stat()
        guard lstat(path, &info) == 0 else {
            step.issues.append(LibraryIssue(path: relative, reason: .unreadableFile(SystemError.describe(errno))))
            return
        }
        if (info.st_mode & S_IFMT) == S_IFLNK {
            guard let target = realpath(path, nil) else {
                step.issues.append(LibraryIssue(path: relative, reason: .unreadableFile("broken symbolic link")))
                return
            }
            let resolved = String(cString: target)
            free(target)
            guard resolved == realRoot || resolved.hasPrefix(realRoot + "/") else {
                step.issues.append(LibraryIssue(path: relative, reason: .symlinkOutsideRoot(target: resolved)))
                return
            }
            guard stat(path, &info) == 0 else { return }
        }
        switch info.st_mode & S_IFMT {
        case S_IFDIR:
            open(
                relative, into: &step, identity: FolderIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
            )
        case S_IFREG:
            step.files.append(
                File(
                    relativePath: relative,
                    fingerprint: FileFingerprint(
                        size: UInt64(info.st_size),
                        modificationTimeNanoseconds: Int64(info.st_mtim.tv_sec) * 1_000_000_000
                            + Int64(info.st_mtim.tv_nsec))))
        default:
            break  // sockets, FIFOs, devices: never media, and opening a FIFO would block
        }
    }

    private func open(_ relative: String, into step: inout Step, identity: FolderIdentity? = nil) {
        let path = relative.isEmpty ? root : root + "/" + relative
        if let identity, !visitedFolders.insert(identity).inserted { return }
        guard let handle = opendir(path) else {
            step.issues.append(
                LibraryIssue(
                    path: relative.isEmpty ? "." : relative,
                    reason: .unreadableFolder(SystemError.describe(errno))))
            return
        }
        stack.append((relative, handle))
        peakOpenFoldersSoFar = max(peakOpenFoldersSoFar, stack.count)
    }
}
