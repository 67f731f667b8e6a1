import Foundation

/// A file's modification time set for the renderer's rule on damaged files: a decode that ends
/// early is rendered partially once the file has gone unmodified for
/// `FileFingerprint.settlingTime`, and fails while it may still be being copied in.
package enum FileAge {
    /// Dates the file at `path` an hour back: long settled.
    package static func settle(_ path: String) throws {
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSinceNow: -3600)], ofItemAtPath: path)
    }

    /// Dates the file at `path` an hour ahead of the clock: still being written as the renderer
    /// sees it, however long a loaded machine takes to reach its render.
    package static func markBeingWritten(_ path: String) throws {
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: 3600)], ofItemAtPath: path)
    }
}
