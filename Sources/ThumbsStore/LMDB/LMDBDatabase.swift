import CLMDB
import ThumbsSupport

/// A named database inside an LMDB environment; the handle stays valid while the environment
/// is open.
struct LMDBDatabase: Sendable, Hashable {
    let handle: MDB_dbi
}
