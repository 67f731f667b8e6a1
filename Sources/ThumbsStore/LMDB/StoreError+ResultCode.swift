import CLMDB
import Glibc

extension StoreError {
    /// The code a store failure carries, as the C side gave it, and which family it is from:
    /// LMDB's own `MDB_*` codes (negative), the system's errno values (positive, from LMDB or
    /// from a call the store made itself), or ``detectedByStore`` (0) for a failure the store
    /// found itself (a malformed record, a damaged file its own check read).
    ///
    /// ```swift
    /// catch let error as StoreError where error.resultCode == .mapFull { ... }
    /// ```
    public struct ResultCode: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// Which of the C codes a result code is.
        public enum Family: Sendable, Hashable {
            /// One of LMDB's `MDB_*` codes.
            case lmdb
            /// An errno value.
            case system
            /// No C code: the store detected the failure itself.
            case store
        }

        /// The C value: an `MDB_*` code, an errno value, or 0.
        public let rawValue: Int32

        public init(rawValue: Int32) { self.rawValue = rawValue }

        /// LMDB keeps its codes below 0 so that they never meet errno's.
        public var family: Family { rawValue < 0 ? .lmdb : rawValue > 0 ? .system : .store }

        /// LMDB's text for its codes (`MDB_MAP_FULL: Environment mapsize limit reached`), the
        /// system's for errno values (`No space left on device`).
        public var description: String {
            family == .store ? "detected by the store" : String(cString: mdb_strerror(rawValue))
        }

        /// A failure the store detected itself, with no C code behind it.
        public static let detectedByStore = ResultCode(rawValue: 0)

        /// `MDB_NOTFOUND`: no such key.
        public static let notFound = ResultCode(rawValue: MDB_NOTFOUND)
        /// `MDB_MAP_FULL`: the map is full; the store grows it and tries again, up to its largest size.
        public static let mapFull = ResultCode(rawValue: MDB_MAP_FULL)
        /// `MDB_MAP_RESIZED`: another process grew the map; the store adopts the new size.
        public static let mapResized = ResultCode(rawValue: MDB_MAP_RESIZED)
        /// `MDB_READERS_FULL`: every reader slot is taken; the store clears those of dead processes.
        public static let readersFull = ResultCode(rawValue: MDB_READERS_FULL)
        /// `MDB_CORRUPTED`: the cache's file is damaged (truncated, overwritten), by LMDB's verdict
        /// or the store's own check of the file. The remedy is to move the cache aside and start a
        /// new one (`thumbs reset`); nothing in it is lost that a warm cannot make again.
        public static let corrupted = ResultCode(rawValue: MDB_CORRUPTED)
        /// `MDB_PAGE_NOTFOUND`: a page the tree points to is missing (damage).
        public static let pageNotFound = ResultCode(rawValue: MDB_PAGE_NOTFOUND)
        /// `MDB_INVALID`: the file is not an LMDB file.
        public static let invalid = ResultCode(rawValue: MDB_INVALID)
        /// `MDB_VERSION_MISMATCH`: the file was written by an incompatible LMDB.
        public static let versionMismatch = ResultCode(rawValue: MDB_VERSION_MISMATCH)
        /// `ENOSPC`: the device holding the cache is full.
        public static let noSpace = ResultCode(rawValue: ENOSPC)
        /// `EACCES`: the cache's files may not be opened or written.
        public static let permissionDenied = ResultCode(rawValue: EACCES)
        /// `EBUSY`: another process holds the cache, where the operation needs it to itself.
        public static let busy = ResultCode(rawValue: EBUSY)
    }
}
