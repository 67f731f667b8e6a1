import Foundation
import Glibc

extension DesktopThumbnailCache {
    /// What ``clean(roots:unusedFor:now:)`` removed.
    public struct CleanSummary: Sendable, Hashable {
        /// Thumbnails and failure entries read.
        public var examined = 0
        /// Of files under the roots that no longer exist.
        public var sourceGone = 0
        /// Of files under the roots that changed since (another modification time).
        public var sourceChanged = 0
        /// Current, but not read for longer than asked.
        public var unused = 0
        /// Files left half-written by a writer that was killed.
        public var leftOvers = 0
        public var bytesFreed: UInt64 = 0

        public init() {}

        public var removed: Int { sourceGone + sourceChanged + unused + leftOvers }
    }

    /// The spec's cleanup, for files under `roots` only: removes every thumbnail and failure
    /// entry (of any program) whose file no longer exists or has changed since; with
    /// `unusedFor`, also those not read (nor written) for that long. Thumbnails of other files
    /// are left alone, and so are files the cache's folders hold that are not thumbnails. The
    /// files under the roots are only `stat`ed, never opened.
    public func clean(roots: [String], unusedFor: Duration? = nil, now: Date = Date()) -> CleanSummary {
        let rootURIs = roots.compactMap { root in
            FileURI(path: URL(fileURLWithPath: root).standardizedFileURL.path)
        }
        var summary = CleanSummary()
        let cutoff = unusedFor.map { now.timeIntervalSince1970 - Double($0.components.seconds) }
        for folder in thumbnailFolders() {
            for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] {
                let path = folder + "/" + name
                var status = stat()
                guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { continue }
                if CacheFile.isLeftOver(name) {
                    // An hour old, so that a warm running beside the cleanup keeps its file.
                    if Double(status.st_mtim.tv_sec) < now.timeIntervalSince1970 - 3600, unlink(path) == 0 {
                        summary.leftOvers += 1
                        summary.bytesFreed += UInt64(status.st_size)
                    }
                    continue
                }
                guard name.hasSuffix(".png") else { continue }
                summary.examined += 1
                guard let fields = CacheFile.read(path).flatMap(PNGText.fields),
                    let uri = fields["Thumb::URI"].flatMap(FileURI.init(string:)),
                    rootURIs.contains(where: uri.isInside), let sourcePath = uri.path
                else { continue }
                var source = stat()
                let removal: WritableKeyPath<CleanSummary, Int>?
                if stat(sourcePath.map { CChar(bitPattern: $0) } + [0], &source) != 0 {
                    removal = errno == ENOENT || errno == ENOTDIR ? \.sourceGone : nil
                } else if fields["Thumb::MTime"] != String(source.st_mtim.tv_sec) {
                    removal = \.sourceChanged
                } else if let cutoff, Double(max(status.st_atim.tv_sec, status.st_mtim.tv_sec)) < cutoff {
                    removal = \.unused
                } else {
                    removal = nil
                }
                if let removal, unlink(path) == 0 {
                    summary[keyPath: removal] += 1
                    summary.bytesFreed += UInt64(status.st_size)
                }
            }
        }
        return summary
    }

    /// Every flavour's folder and every program's failure folder.
    private func thumbnailFolders() -> [String] {
        let failures = (try? FileManager.default.contentsOfDirectory(atPath: folder + "/fail")) ?? []
        return ThumbnailFlavor.allCases.map { folder + "/" + $0.folderName }
            + failures.sorted().map { folder + "/fail/" + $0 }
    }
}
