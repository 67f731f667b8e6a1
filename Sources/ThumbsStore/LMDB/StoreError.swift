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

    public static let notFound = MDB_NOTFOUND
    public static let mapFull = MDB_MAP_FULL
    public static let mapResized = MDB_MAP_RESIZED

    public var description: String { "\(operation): \(message) (\(resultCode))" }
}

/// Throws a ``StoreError`` unless `code` is 0 (MDB_SUCCESS).
@inline(__always)
func check(_ code: Int32, _ operation: @autoclosure () -> String) throws(StoreError) {
    guard code == 0 else { throw StoreError(lmdb: code, operation()) }
}
