import Synchronization
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
    private let changeCount = Atomic<Int>(0)

    init(_ baseline: FetchResult, historyLimit: Int = 1024) {
        state = LockedValue(State(snapshot: LibrarySnapshot(baseline), log: ChangeLog(limit: historyLimit)))
    }

    /// The current snapshot and the change token that names it.
    var current: (snapshot: LibrarySnapshot, token: String) {
        state.withLock { ($0.snapshot, $0.log.token) }
    }

    var snapshot: LibrarySnapshot { state.withLock { $0.snapshot } }

    /// The asset `id` names in the current snapshot, found under the lock rather than in a copy
    /// of the snapshot: a copy retains and releases its every collection, which every request
    /// would then do.
    func asset(id: String) -> Asset? {
        state.withLock { $0.snapshot.asset(id: id) }
    }

    /// How many changes the index has applied: an answer prepared at one generation holds as
    /// long as the generation is the same. Read without the lock.
    var generation: Int { changeCount.load(ordering: .acquiring) }

    /// Moves to the library as `change` leaves it.
    func apply(_ change: ChangeDetails) {
        // Built outside the lock: a large library takes milliseconds to index.
        let next = LibrarySnapshot(change.after)
        let entry = Self.listingEntry(change)
        state.withLock { state in
            state.snapshot = next
            state.log.append(entry)
        }
        changeCount.add(1, ordering: .releasing)
    }

    /// `change` as a listing sees it: a burst frame hidden behind the frame that stands for its
    /// burst is not listed, so one that comes to stand for it (its cover deleted) is inserted,
    /// one that stops is removed, and one hidden before and after is not mentioned.
    static func listingEntry(_ change: ChangeDetails) -> ChangeLog.Entry {
        var hiddenBefore = Set<String>()
        for asset in change.before where asset.isHiddenBurstFrame { hiddenBefore.insert(asset.id) }
        var removed = change.removedAssets.filter { !$0.isHiddenBurstFrame }.map(\.id)
        var inserted: [String] = [], changed: [String] = []
        for index in change.insertedIndexes where !change.after[index].isHiddenBurstFrame {
            inserted.append(change.after[index].id)
        }
        for index in change.changedIndexes {
            let asset = change.after[index], wasHidden = hiddenBefore.contains(asset.id)
            switch (wasHidden, asset.isHiddenBurstFrame) {
            case (false, false): changed.append(asset.id)
            case (true, false): inserted.append(asset.id)
            case (false, true): removed.append(asset.id)
            case (true, true): break
            }
        }
        return ChangeLog.Entry(removed: removed, inserted: inserted, changed: changed)
    }

    /// What changed since `token`, with the assets as they are now, and the token of now.
    func changes(since token: String) -> (
        lookup: ChangeLog.Lookup, snapshot: LibrarySnapshot, token: String
    ) {
        state.withLock { ($0.log.changes(since: token), $0.snapshot, $0.log.token) }
    }
}
