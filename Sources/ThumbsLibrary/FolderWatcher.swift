import Foundation
import Glibc
import SystemPackage
import ThumbsRendering
import ThumbsStore
import ThumbsSupport

/// Watches every folder under some roots with inotify, and calls back once per burst of
/// changes: after the first event it waits until `debounce` passes with no new one (at most ten
/// times that while events keep coming), so copying a thousand files in is a few callbacks, not
/// a thousand. Folders created meanwhile are watched as they appear.
///
/// `@unchecked Sendable`: `watches` is touched only by the watching thread; `stopped` is
/// guarded by `lock`.
final class FolderWatcher: @unchecked Sendable {
    private let roots: [String]
    private let includeHidden: Bool
    private let debounce: Duration
    private let descriptor: Int32
    private var watches: [Int32: FilePath] = [:]
    private let lock = NSLock()
    private var stopped = false

    private static let events = UInt32(
        IN_CREATE | IN_DELETE | IN_CLOSE_WRITE | IN_MOVED_FROM | IN_MOVED_TO
            | IN_ATTRIB | IN_DELETE_SELF | IN_MOVE_SELF)

    init(roots: [String], includeHidden: Bool, debounce: Duration) throws {
        self.roots = roots
        self.includeHidden = includeHidden
        self.debounce = debounce
        descriptor = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        guard descriptor >= 0 else {
            throw LibraryError.watchFailed("inotify: \(SystemError.describe(errno))")
        }
        for root in roots { watchTree(FilePath(root)) }
    }

    deinit {
        close(descriptor)
    }

    /// Starts the watching thread; `onChanges` runs on it, once per burst.
    func start(_ onChanges: @escaping @Sendable () -> Void) {
        Thread { [self] in
            Thread.current.name = "thumbs-watch"
            run(onChanges)
        }.start()
    }

    func stop() {
        lock.withLock { stopped = true }
    }

    private var isStopped: Bool { lock.withLock { stopped } }

    private func run(_ onChanges: @Sendable () -> Void) {
        let quiet = Int32(debounce.components.seconds * 1000 + debounce.components.attoseconds / 1_000_000_000_000_000)
        var burstStarted: ContinuousClock.Instant?
        while !isStopped {
            // While idle, wake every 200 ms to notice stop(); during a burst, wait for quiet.
            let ready = wait(milliseconds: burstStarted == nil ? 200 : quiet)
            if ready {
                drainEvents()
                if burstStarted == nil { burstStarted = .now }
                if let start = burstStarted, start.duration(to: .now) < debounce * 10 { continue }
            }
            if burstStarted != nil {
                burstStarted = nil
                onChanges()
            }
        }
    }

    private func wait(milliseconds: Int32) -> Bool {
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&poller, 1, milliseconds) > 0
    }

    /// Reads every pending event; new folders get watches (and their own subfolders).
    private func drainEvents() {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { return }
            var offset = 0
            while offset + MemoryLayout<inotify_event>.size <= count {
                let (watch, mask, length) = buffer.withUnsafeBytes { raw -> (Int32, UInt32, Int) in
                    let event = raw.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
                    return (event.wd, event.mask, Int(event.len))
                }
                let nameStart = offset + MemoryLayout<inotify_event>.size
                if mask & UInt32(IN_ISDIR) != 0, mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0, length > 0,
                    let folder = watches[watch]
                {
                    // The name is NUL-padded to `length`; it is read up to its NUL.
                    let name = buffer[nameStart..<nameStart + length].withUnsafeBytes {
                        FilePath.Component(platformString: $0.bindMemory(to: CChar.self).baseAddress!)
                    }
                    if let name, includeHidden || !name.isHidden { watchTree(folder.appending(name)) }
                }
                if mask & UInt32(IN_IGNORED) != 0 { watches[watch] = nil }
                offset = nameStart + length
            }
        }
    }

    /// Adds a watch on `folder` and every folder below it.
    private func watchTree(_ folder: FilePath) {
        let watch = folder.withPlatformString { inotify_add_watch(descriptor, $0, Self.events) }
        guard watch >= 0 else { return }
        watches[watch] = folder
        guard let handle = folder.withPlatformString({ opendir($0) }) else { return }
        defer { closedir(handle) }
        while let entry = readdir(handle) {
            guard entry.pointee.d_type == UInt8(DT_DIR) else { continue }
            guard let name = FilePath.Component(directoryEntry: entry), includeHidden || !name.isHidden else {
                continue
            }
            watchTree(folder.appending(name))
        }
    }
}
