/// A failure of the thumbnail store, keeping its result code (LMDB's, errno, or none) and message.
///
/// ```swift
/// catch let error as StoreError where error.resultCode == .mapFull { ... }
/// ```
public struct StoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// LMDB's result code, an errno value, or ``ResultCode/detectedByStore`` for a failure the
    /// store detected itself (a malformed record, a busy cache).
    public var resultCode: ResultCode
    /// LMDB's or the system's text for the code, or the store's own explanation.
    public var message: String
    /// What the store was doing.
    public var operation: String
    /// The source cache whose failure ended a merge (``ThumbnailStore/merge(into:from:)``):
    /// nil when the failure is the destination's, or not a merge's.
    public var mergeSource: String?

    public init(resultCode: ResultCode, message: String, operation: String) {
        self.resultCode = resultCode
        self.message = message
        self.operation = operation
    }

    /// What an LMDB call returned (one of its codes, or an errno value it passed on), or what a
    /// system call left in errno, with the library's text for it.
    init(code: Int32, _ operation: String) {
        let resultCode = ResultCode(rawValue: code)
        self.init(resultCode: resultCode, message: resultCode.description, operation: operation)
    }

    /// A failure detected by the store itself.
    package static func store(_ message: String, _ operation: String) -> StoreError {
        StoreError(resultCode: .detectedByStore, message: message, operation: operation)
    }

    /// Whether the cache's file is damaged, by the store's check or by LMDB's own verdict.
    public var isDamaged: Bool {
        [.corrupted, .pageNotFound, .invalid, .versionMismatch].contains(resultCode)
    }

    /// Whether the device holding the cache is full.
    public var isNoSpace: Bool { resultCode == .noSpace }

    /// The operation and the message, then the result code when there is one.
    public var description: String {
        resultCode == .detectedByStore
            ? "\(operation): \(message)" : "\(operation): \(message) (\(resultCode.rawValue))"
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
    guard code == 0 else { throw StoreError(code: code, operation()) }
}
