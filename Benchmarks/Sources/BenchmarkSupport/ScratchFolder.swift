import Foundation

/// Temporary folders for the benchmarks' caches, which would otherwise pile up in the temporary
/// directory (a cold-cache benchmark makes a new cache every iteration).
///
/// All of a process's folders live under one `thumbs-bench-run-PID`, removed when the process
/// exits; runs that were killed before exiting are cleaned up by the next one.
/// ```swift
/// let store = try ThumbnailStore(configuration: StoreConfiguration(path: ScratchFolder.make("cache")))
/// ```
public enum ScratchFolder {
    private static let prefix = "thumbs-bench-run-"

    private static let root: String = {
        let temporary = FileManager.default.temporaryDirectory.path
        for name in (try? FileManager.default.contentsOfDirectory(atPath: temporary)) ?? [] where name.hasPrefix(prefix)
        {
            // kill(pid, 0) fails with ESRCH once that run's process is gone.
            if let pid = pid_t(name.dropFirst(prefix.count)), kill(pid, 0) != 0, errno == ESRCH {
                try? FileManager.default.removeItem(atPath: temporary + "/" + name)
            }
        }
        let root = temporary + "/" + prefix + String(getpid())
        atexit { try? FileManager.default.removeItem(atPath: ScratchFolder.root) }
        return root
    }()

    /// A new, empty folder path (not created: the store creates it).
    public static func make(_ name: String) -> String {
        root + "/\(name)-\(UUID().uuidString)"
    }
}
