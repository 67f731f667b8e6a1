import CLMDB
import Glibc
import ThumbsImaging
import ThumbsSupport

/// A failure of the thumbnail store, keeping LMDB's result code (or errno) and message.
///
/// ```swift
/// catch let error as StoreError where error.resultCode == StoreError.mapFull { ... }
/// ```
public struct StoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// LMDB's result code (negative, `MDB_*`), an errno value (positive), or 0 for a failure the
    /// store detected itself (a malformed record, a busy cache).
    public var resultCode: Int32
    /// LMDB's or the system's text for the code, or the store's own explanation.
    public var message: String
    /// What the store was doing.
    public var operation: String
    /// The source cache whose failure ended a merge (``ThumbnailStore/merge(into:from:)``):
    /// nil when the failure is the destination's, or not a merge's.
    public var mergeSource: String?

    public init(resultCode: Int32, message: String, operation: String) {
        self.resultCode = resultCode
        self.message = message
        self.operation = operation
    }

    /// An LMDB (or errno) result code, with LMDB's text for it.
    init(lmdb code: Int32, _ operation: String) {
        self.init(resultCode: code, message: String(cString: mdb_strerror(code)), operation: operation)
    }

    /// A failure detected by the store itself.
    package static func store(_ message: String, _ operation: String) -> StoreError {
        StoreError(resultCode: 0, message: message, operation: operation)
    }

    /// The code of a cache whose file is damaged (truncated, overwritten): found by the store's
    /// own check of the file, or reported by LMDB. The remedy is to move the cache aside and start
    /// a new one (`thumbs reset`); nothing in it is lost that a warm cannot make again.
    public static let damaged = MDB_CORRUPTED

    /// Whether the cache's file is damaged, by the store's check or by LMDB's own verdict.
    public var isDamaged: Bool {
        [MDB_CORRUPTED, MDB_PAGE_NOTFOUND, MDB_INVALID, MDB_VERSION_MISMATCH].contains(resultCode)
    }

    /// Whether the device holding the cache is full.
    public var isNoSpace: Bool { resultCode == ENOSPC }

    public static let notFound = MDB_NOTFOUND
    public static let mapFull = MDB_MAP_FULL
    public static let mapResized = MDB_MAP_RESIZED

    /// The operation and the message, then the result code when there is one.
    public var description: String {
        resultCode == 0 ? "\(operation): \(message)" : "\(operation): \(message) (\(resultCode))"
    }

    /// This failure, as the failure of the merge source at `path`.
    func fromMergeSource(_ path: String) -> StoreError {
        var error = self
        error.mergeSource = path
        return error
    }
}

/// Throws a ``StoreError`` unless `code` is 0 (MDB_SUCCESS).
@inline(__always)
func check(_ code: Int32, _ operation: @autoclosure () -> String) throws(StoreError) {
    guard code == 0 else { throw StoreError(lmdb: code, operation()) }
}
