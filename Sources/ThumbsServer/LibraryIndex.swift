import Foundation
import ThumbsLibrary
import ThumbsSupport

/// The server's view of the library, kept current by the watch: the latest snapshot and the
/// history of changes that led to it. Readers take the snapshot under a short lock and work on
/// it unlocked.
final class LibraryIndex: Sendable {
    private struct State: Sendable {
        var snapshot: LibrarySnapshot
        var log: ChangeLog
    }

    private let state: LockedValue<State>

    init(_ baseline: FetchResult, historyLimit: Int = 1024) {
        state = LockedValue(State(snapshot: LibrarySnapshot(baseline), log: ChangeLog(limit: historyLimit)))
    }

    /// The current snapshot and the change token that names it.
    var current: (snapshot: LibrarySnapshot, token: String) {
        state.withLock { ($0.snapshot, $0.log.token) }
    }

    var snapshot: LibrarySnapshot { state.withLock { $0.snapshot } }

    /// Moves to the library as `change` leaves it.
    func apply(_ change: ChangeDetails) {
        // Built outside the lock: a large library takes milliseconds to index.
        let next = LibrarySnapshot(change.after)
        let entry = ChangeLog.Entry(
            removed: change.removedAssets.map(\.id),
            inserted: change.insertedIndexes.map { change.after[$0].id },
            changed: change.changedIndexes.map { change.after[$0].id })
        state.withLock { state in
            state.snapshot = next
            state.log.append(entry)
        }
    }

    /// What changed since `token`, with the assets as they are now, and the token of now.
    func changes(since token: String) -> (
        lookup: ChangeLog.Lookup, snapshot: LibrarySnapshot, token: String
    ) {
        state.withLock { ($0.log.changes(since: token), $0.snapshot, $0.log.token) }
    }
}
